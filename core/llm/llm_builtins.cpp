// The built-in language models: each as its publisher's config.json gives it, its parameter count
// as the model card or paper states it (the tests count each against it).
#include "llm/llm_arch.h"

#include "llm/llm_phase.h"

#include <string>
#include <tuple>

namespace rfx {

namespace {

LlmArch llama(std::string id, std::string title, std::string source, std::int64_t published, int layers, int hidden,
    int heads, int kvHeads, int ffn, int vocab, int maxContext)
{
    LlmArch a;
    a.id = std::move(id);
    a.title = std::move(title);
    a.family = "llama";
    a.source = std::move(source);
    a.publishedParams = published;
    a.layers = layers;
    a.hidden = hidden;
    a.heads = heads;
    a.kvHeads = kvHeads;
    a.headDim = hidden / heads;
    a.ffn = ffn;
    a.vocab = vocab;
    a.maxContext = maxContext;
    return a;
}

// GPT-2 and Llama 2, 3.1 and 3.2: Llama's shape, GPT-2's with its own norms and MLP.
void addGptAndLlama(std::vector<LlmArch>& v)
{
    { // https://huggingface.co/openai-community/gpt2/blob/main/config.json; Radford et al. 2019 ("117M", counted 124M)
        LlmArch a = llama("gpt2", "GPT-2 (OpenAI, 2019; 124 M)", "huggingface.co/openai-community/gpt2 config.json",
            124'439'808, 12, 768, 12, 12, 3072, 50257, 1024);
        a.family = "gpt2";
        a.tiedEmbeddings = a.allBiases = a.fusedQkv = a.learnedPositions = true;
        a.mlp = LlmMlp::Gelu;
        a.norm = LlmNorm::Layer;
        v.push_back(a);
    }
    v.push_back(llama("llama-2-7b", "Llama-2 7B (Meta, 2023)", "huggingface.co/meta-llama/Llama-2-7b-hf config.json",
        6'738'415'616, 32, 4096, 32, 32, 11008, 32000, 4096));
    v.push_back(llama("llama-2-13b", "Llama-2 13B (Meta, 2023)", "huggingface.co/meta-llama/Llama-2-13b-hf config.json",
        13'015'864'320, 40, 5120, 40, 40, 13824, 32000, 4096));
    v.push_back(llama("llama-2-70b", "Llama-2 70B (Meta, 2023; grouped-query attention)",
        "huggingface.co/meta-llama/Llama-2-70b-hf config.json", 68'976'648'192, 80, 8192, 64, 8, 28672, 32000, 4096));
    v.push_back(llama("llama-3.1-8b", "Llama-3.1 8B (Meta, 2024)", "huggingface.co/meta-llama/Llama-3.1-8B config.json",
        8'030'261'248, 32, 4096, 32, 8, 14336, 128256, 131072));
    v.push_back(llama("llama-3.1-70b", "Llama-3.1 70B (Meta, 2024)",
        "huggingface.co/meta-llama/Llama-3.1-70B config.json", 70'553'706'496, 80, 8192, 64, 8, 28672, 128256, 131072));
    { // tied embeddings: 1,235,814,400 (16 blocks of 60,821,504, the 262,668,288 embedding once, the final norm)
        LlmArch a = llama("llama-3.2-1b", "Llama-3.2 1B (Meta, 2024)",
            "huggingface.co/meta-llama/Llama-3.2-1B config.json", 1'235'814'400, 16, 2048, 32, 8, 8192, 128256, 131072);
        a.tiedEmbeddings = true;
        v.push_back(a);
    }
    v.push_back(
        llama("llama-3.1-405b", "Llama-3.1 405B (Meta, 2024)", "huggingface.co/meta-llama/Llama-3.1-405B config.json",
            405'853'388'800, 126, 16384, 128, 8, 53248, 128256, 131072));
}

// Mistral's sliding window, Mixtral's experts, Qwen2.5's q/k/v biases.
void addMistralAndQwen2(std::vector<LlmArch>& v)
{
    {
        LlmArch a = llama("mistral-7b", "Mistral-7B v0.1 (Mistral AI, 2023; sliding window 4096)",
            "huggingface.co/mistralai/Mistral-7B-v0.1 config.json", 7'241'732'096, 32, 4096, 32, 8, 14336, 32000,
            32768);
        a.family = "mistral";
        a.slidingWindow = 4096;
        v.push_back(a);
    }
    {
        LlmArch a = llama("mixtral-8x7b", "Mixtral-8x7B v0.1 (Mistral AI, 2023; 8 experts, top 2)",
            "huggingface.co/mistralai/Mixtral-8x7B-v0.1 config.json", 46'702'792'704, 32, 4096, 32, 8, 14336, 32000,
            32768);
        a.family = "mixtral";
        a.experts = 8;
        a.expertsPerToken = 2;
        v.push_back(a);
    }
    { // tied embeddings, q/k/v biases: 494,032,768 ("0.49 B" on its model card)
        LlmArch a = llama("qwen2.5-0.5b", "Qwen2.5 0.5B (Alibaba, 2024)",
            "huggingface.co/Qwen/Qwen2.5-0.5B config.json", 494'032'768, 24, 896, 14, 2, 4864, 151936, 32768);
        a.family = "qwen2";
        a.qkvBias = a.tiedEmbeddings = true;
        v.push_back(a);
    }
    {
        LlmArch a = llama("qwen2.5-7b", "Qwen2.5 7B (Alibaba, 2024)", "huggingface.co/Qwen/Qwen2.5-7B config.json",
            7'615'616'512, 28, 3584, 28, 4, 18944, 152064, 131072);
        a.family = "qwen2";
        a.qkvBias = true;
        v.push_back(a);
    }
    {
        LlmArch a = llama("qwen2.5-72b", "Qwen2.5 72B (Alibaba, 2024)", "huggingface.co/Qwen/Qwen2.5-72B config.json",
            72'706'203'648, 80, 8192, 64, 8, 29568, 152064, 131072);
        a.family = "qwen2";
        a.qkvBias = true;
        v.push_back(a);
    }
}

void addQwen3(std::vector<LlmArch>& v)
{
    // Qwen3: a norm over each head's query and key, head_dim 128 whatever the width, no q/k/v biases.
    // Counts worked by hand in tests/core/llm/tst_llm_arch_qwen3.cpp against the model cards.
    auto qwen3 = [](std::string id, const char* repo, std::string title, std::int64_t published, int layers, int hidden,
                     int heads, int kvHeads, int ffn, bool tied) {
        LlmArch a = llama(std::move(id), std::move(title), std::string("huggingface.co/Qwen/") + repo + " config.json",
            published, layers, hidden, heads, kvHeads, ffn, 151936, 40960);
        a.family = "qwen3";
        a.headDim = 128;
        a.qkNorm = true;
        a.tiedEmbeddings = tied;
        return a;
    };
    // model card: "Number of Parameters: 8.2B" (8,190,735,360 by the config)
    v.push_back(
        qwen3("qwen3-8b", "Qwen3-8B", "Qwen3 8B (Alibaba, 2025)", 8'190'735'360, 36, 4096, 32, 8, 12288, false));
    { // model card: "30.5B in total and 3.3B activated"; 128 experts of 768, 8 a token, no shared expert
        LlmArch a = qwen3("qwen3-30b-a3b", "Qwen3-30B-A3B", "Qwen3 30B-A3B (Alibaba, 2025; 128 experts, top 8)",
            30'532'122'624, 48, 2048, 32, 4, 6144, false);
        a.family = "qwen3_moe";
        a.experts = 128;
        a.expertsPerToken = 8;
        a.expertFfn = 768;
        v.push_back(a);
    }
    { // model card: "235B in total and 22B activated"; 128 experts of 1,536, 8 a token
        LlmArch a = qwen3("qwen3-235b-a22b", "Qwen3-235B-A22B", "Qwen3 235B-A22B (Alibaba, 2025; 128 experts, top 8)",
            235'093'634'560, 94, 4096, 64, 4, 12288, false);
        a.family = "qwen3_moe";
        a.experts = 128;
        a.expertsPerToken = 8;
        a.expertFfn = 1536;
        v.push_back(a);
    }
}

void addDeepSeek(std::vector<LlmArch>& v)
{
    { // model card: "671B total parameters with 37B activated for each token" (the 14 B of its next-token
      // prediction module, in the Hub's 685 B, are not counted); latent attention, 256 routed experts of
      // 2,048 with one shared, top 8, the first 3 layers dense. 671,026,419,200 worked by hand in tst_llm_today.
        LlmArch a
            = llama("deepseek-v3", "DeepSeek-V3 (DeepSeek, 2024; latent attention, 256 experts + 1 shared, top 8)",
                "huggingface.co/deepseek-ai/DeepSeek-V3 config.json; arXiv:2412.19437", 671'026'419'200, 61, 7168, 128,
                1, 18432, 129280, 163840);
        a.family = "deepseek_v3";
        a.qLora = 1536;
        a.kvLora = 512;
        a.qkNope = 128;
        a.qkRope = 64;
        a.vHeadDim = 128;
        a.headDim = a.qkNope + a.qkRope;
        a.experts = 256;
        a.expertsPerToken = 8;
        a.expertFfn = 2048;
        a.sharedExperts = 1;
        a.denseLayers = 3;
        a.routerBias = true;
        v.push_back(a);
    }
}

// Phi-3's fused projections, Gemma 2's alternating local and global attention.
void addPhiAndGemma2(std::vector<LlmArch>& v)
{
    {
        LlmArch a = llama("phi-3-mini", "Phi-3-mini 4k (Microsoft, 2024; 3.8 B)",
            "huggingface.co/microsoft/Phi-3-mini-4k-instruct config.json", 3'821'079'552, 32, 3072, 32, 32, 8192, 32064,
            4096);
        a.family = "phi3";
        a.fusedQkv = a.fusedGateUp = true;
        a.slidingWindow = 2047;
        v.push_back(a);
    }
    {
        LlmArch a = llama("gemma-2-9b", "Gemma-2 9B (Google, 2024; local and global attention alternate)",
            "huggingface.co/google/gemma-2-9b config.json", 9'241'705'984, 42, 3584, 16, 8, 14336, 256000, 8192);
        a.family = "gemma2";
        a.headDim = 256;
        a.tiedEmbeddings = true;
        a.mlp = LlmMlp::GeGlu;
        a.normsPerBlock = 4;
        a.slidingWindow = 4096;
        a.slidingPeriod = 2;
        v.push_back(a);
    }
}

void addLlama4(std::vector<LlmArch>& v)
{
    // Llama 4 (huggingface.co/meta-llama/Llama-4-Scout-17B-16E and Llama-4-Maverick-17B-128E config.json,
    // text_config; model card: 109B and 400B total, 17B active, counting the vision encoder): the text
    // decoder, mixtures of one routed expert of 8,192 beside a shared one, every layer (Scout) or every
    // other from layer 1 (Maverick, dense layers of 16,384 between); three layers in four attend within
    // chunks of 8,192 tokens, the fourth to the whole context. The query and key L2 norms have no weights.
    for (const auto& [id, title, experts, step, context, count] :
        { std::tuple { "llama-4-scout",
              "Llama-4 Scout 17B-16E (Meta, 2025; text decoder, 16 experts + 1 shared, top 1)", 16, 1, 10485760,
              std::int64_t(107'769'861'120) },
            std::tuple { "llama-4-maverick",
                "Llama-4 Maverick 17B-128E (Meta, 2025; text decoder, 128 experts + 1 shared, top 1)", 128, 2, 1048576,
                std::int64_t(400'711'848'960) } }) {
        LlmArch a = llama(id, title,
            std::string("huggingface.co/meta-llama/")
                + (experts == 16 ? "Llama-4-Scout-17B-16E" : "Llama-4-Maverick-17B-128E") + " config.json",
            count, 48, 5120, 40, 8, 16384, 202048, context);
        a.family = "llama4";
        a.headDim = 128;
        a.experts = experts;
        a.expertsPerToken = 1;
        a.expertFfn = 8192;
        a.sharedExperts = 1;
        a.moeStep = step;
        a.slidingWindow = 8192;
        a.slidingPeriod = 4;
        a.chunkedAttention = true;
        v.push_back(a);
    }
}

void addGptOss(std::vector<LlmArch>& v)
{
    // gpt-oss (huggingface.co/openai/gpt-oss-20b and -120b config.json; gpt-oss model card, arXiv:2508.10925,
    // Table 1: 20.91B total, 3.61B active; 116.83B and 5.13B, the active counts without the embedding
    // table): experts with biases, 4 a token, a router with a bias, attention with biases and a sink per
    // head, sliding windows of 128 on every other layer from layer 0; the experts published in MXFP4.
    for (const auto& [id, title, layers, experts, count] :
        { std::tuple { "gpt-oss-20b", "gpt-oss-20b (OpenAI, 2025; 32 experts, top 4, MXFP4)", 24, 32,
              std::int64_t(20'914'757'184) },
            std::tuple { "gpt-oss-120b", "gpt-oss-120b (OpenAI, 2025; 128 experts, top 4, MXFP4)", 36, 128,
                std::int64_t(116'829'156'672) } }) {
        LlmArch a
            = llama(id, title, std::string("huggingface.co/openai/") + id + " config.json; arXiv:2508.10925 Table 1",
                count, layers, 2880, 64, 8, 2880, 201088, 131072);
        a.family = "gpt_oss";
        a.headDim = 64;
        a.qkvBias = a.oBias = a.attentionSinks = a.expertBiases = a.routerBias = a.activeWithoutEmbedding = true;
        a.experts = experts;
        a.expertsPerToken = 4;
        a.expertFfn = 2880;
        a.slidingWindow = 128;
        a.slidingPeriod = 2;
        a.expertBits = kMxfp4Bits;
        v.push_back(a);
    }
}

void addGemma3(std::vector<LlmArch>& v)
{
    // Gemma 3's text decoders (Gemma 3 Technical Report, arXiv:2503.19786, Table 1: embedding and
    // non-embedding parameters; the 4B, 12B and 27B also hold a 417 M vision encoder, not counted here):
    // five sliding-window layers to one global, q and k normed per head, four norms a block, GeGLU, the
    // head tied. transformers' Gemma3TextConfig defaults fill what the Hub's config.json leaves out.
    struct Gemma3 {
        const char *id, *title, *hub;
        std::int64_t params;
        int layers, hidden, heads, kvHeads, headDim, ffn, vocab, context, window;
    };
    static constexpr Gemma3 gemma3[] = {
        { "gemma-3-1b", "Gemma-3 1B (Google, 2025; 5 local layers to 1 global)", "gemma-3-1b-pt", 999'885'952, 26, 1152,
            4, 1, 256, 6912, 262144, 32768, 512 },
        { "gemma-3-4b", "Gemma-3 4B (Google, 2025; text decoder, 5 local layers to 1 global)", "gemma-3-4b-pt",
            3'880'263'168, 34, 2560, 8, 4, 256, 10240, 262208, 131072, 1024 },
        { "gemma-3-12b", "Gemma-3 12B (Google, 2025; text decoder, 5 local layers to 1 global)", "gemma-3-12b-pt",
            11'766'034'176, 48, 3840, 16, 8, 256, 15360, 262208, 131072, 1024 },
        { "gemma-3-27b", "Gemma-3 27B (Google, 2025; text decoder, 5 local layers to 1 global)", "gemma-3-27b-pt",
            27'009'346'304, 62, 5376, 32, 16, 128, 21504, 262208, 131072, 1024 },
    };
    for (const Gemma3& g : gemma3) {
        LlmArch a = llama(g.id, g.title,
            std::string("huggingface.co/google/") + g.hub + " config.json; arXiv:2503.19786 Table 1", g.params,
            g.layers, g.hidden, g.heads, g.kvHeads, g.ffn, g.vocab, g.context);
        a.family = "gemma3";
        a.headDim = g.headDim;
        a.tiedEmbeddings = a.qkNorm = true;
        a.mlp = LlmMlp::GeGlu;
        a.normsPerBlock = 4;
        a.slidingWindow = g.window;
        a.slidingPeriod = 6;
        v.push_back(a);
    }
}

std::vector<LlmArch> makeBuiltins()
{
    std::vector<LlmArch> v;
    addGptAndLlama(v);
    addMistralAndQwen2(v);
    addQwen3(v);
    addDeepSeek(v);
    addPhiAndGemma2(v);
    addLlama4(v);
    addGptOss(v);
    addGemma3(v);
    return v;
}

} // namespace

const std::vector<LlmArch>& builtinLanguageModels()
{
    static const std::vector<LlmArch> models = makeBuiltins();
    return models;
}

} // namespace rfx
