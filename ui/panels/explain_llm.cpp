#include "panels/explain_llm.h"

#include "style/text.h"

#include "base/format.h"

#include <algorithm>
#include <cmath>

namespace rfx {

namespace {

QString num(double v) { return qs(formatNumber3(v)); }
QString countText(std::int64_t v) { return qs(formatCount(v)); }
QString bytesEach(double v) { return QString::number(v, 'g', 3); } // 2, 0.5, 0.516

// Bytes per weight of the matrix rows, from the weights' memory (all of them, whatever the file stores).
double weightBytes(const LlmAnalysis& a)
{
    return a.parameters > 0 && !a.figures.empty() ? a.figures.front().weightsBytes / double(a.parameters) : 2;
}

bool isMatrix(const LayerResult& l) { return (l.op == Op::MatMul || l.op == Op::Linear) && l.params > 0; }
bool isAttention(const std::string& name)
{
    for (const char* part : { "attention", "attn_scores", "attn_softmax", "attn_context" })
        if (name.find(part) != std::string::npos)
            return true;
    return false;
}

} // namespace

QString explainLlmRow(const LlmAnalysis& a, const LlmArch& arch, LlmPhase phase, int device, int row)
{
    const Report& r = phase == LlmPhase::Prefill ? a.prefill : a.decode;
    if (device < 0 || size_t(device) >= r.results.size() || row < 0
        || size_t(row) >= r.results[size_t(device)].layers.size())
        return {};
    const DeviceResult& d = r.results[size_t(device)];
    const LayerResult& l = d.layers[size_t(row)];
    const LlmSettings& s = a.settings;
    const bool decode = phase == LlmPhase::Decode;
    const int B = s.batch;
    const std::int64_t tokens = decode ? std::int64_t(B) : std::int64_t(B) * s.prompt;
    QString text = QStringLiteral("<h3>In the language model</h3>");
    text += decode
        ? QStringLiteral(
            "<p>A decode step adds one token to each of the %1 sequence(s): %2 token(s) pass through every row.</p>")
              .arg(countText(B), countText(tokens))
        : QStringLiteral(
            "<p>The prefill takes each sequence's %1 prompt tokens at once: %2 tokens pass through every row.</p>")
              .arg(countText(s.prompt), countText(tokens));
    if (l.name.rfind("blk", 0) == 0)
        text += QStringLiteral(
            "<p><b>%1</b> stands for this row in every block it names (the model has %2): the blocks "
            "are alike, so the row is listed once and its FLOPs, bytes and time are all of theirs.</p>")
                    .arg(qs(l.name), countText(arch.layers));
    if (isMatrix(l)) {
        const double perWeight = weightBytes(a);
        text += QStringLiteral(
            "<p>Its weights, %1 (%2 parameters at %3 bytes each), are read from memory once per %4 and "
            "used by each of the %5 tokens: 2 FLOPs (a multiply-add) per weight per token, so its "
            "intensity is about 2 \u00d7 %5 / %3 = <b>%6 FLOP/B</b> (the table's %7, with the activations' "
            "bytes).</p>")
                    .arg(qs(formatBytes(double(l.params) * perWeight)), countText(l.params), bytesEach(perWeight),
                        decode ? QStringLiteral("step") : QStringLiteral("prefill"), countText(tokens),
                        num(2.0 * double(tokens) / perWeight), num(l.intensity));
        text += l.intensity < d.ridge
            ? QStringLiteral(
                "<p>That is left of the ridge (%1 FLOP/B): the row waits for its weights to stream in. More "
                "sequences in the batch reuse each weight more: about %2 tokens per step would meet the ridge.</p>")
                  .arg(num(d.ridge), countText(std::int64_t(std::ceil(d.ridge * perWeight / 2))))
            : QStringLiteral(
                "<p>That is right of the ridge (%1 FLOP/B): the row is held by the arithmetic units, not by "
                "the weights' bytes.</p>")
                  .arg(num(d.ridge));
    } else if (isAttention(l.name)) {
        const double kvToken = arch.kvElementsPerToken() * s.kvBits / 8.0;
        // latent attention (DeepSeek): the cache holds one latent and one rotary key a token, which every head reads
        const QString perToken = arch.latent()
            ? QStringLiteral("(%1 latent + %2 rotary key)").arg(countText(arch.kvLora), countText(arch.qkRope))
            : QStringLiteral("2 (K and V) \u00d7 %1 KV heads \u00d7 %2")
                  .arg(countText(arch.kvHeads), countText(arch.headDim));
        text += decode
            ? QStringLiteral("<p>Attention reads the KV cache: per sequence and block, %1 tokens \u00d7 %2 "
                             "\u00d7 %3 bytes = %4, for %5 sequence(s) and %6 blocks. "
                             "Each cached byte is used by one query token only, so the row stays near the slope "
                             "however large the batch: a longer context makes every step slower (the context "
                             "sweep, Shift+F10).</p>")
                  .arg(countText(a.context), perToken, bytesEach(s.kvBits / 8.0), qs(formatMemory(kvToken * a.context)),
                      countText(B), countText(arch.layers))
            : QStringLiteral("<p>In the prefill every prompt token attends to the tokens before it: the "
                             "scores grow with the square of the prompt, while the bytes grow with it.</p>");
    } else if (l.op == Op::Copy)
        text
            += QStringLiteral("<p>A row that moves data (a lookup or the new keys and values written to the cache): no "
                              "arithmetic, its time is its bytes over the bandwidth.</p>");
    else
        text += QStringLiteral(
            "<p>An elementwise row: a few operations per element it reads and writes, far left of the "
            "ridge in both phases; its time is its bytes over the bandwidth.</p>");
    return text;
}

QStringList llmTourPages(const LlmAnalysis& a, const LlmArch& arch, int device)
{
    if (device < 0 || size_t(device) >= a.figures.size() || size_t(device) >= a.decode.results.size())
        return {};
    const LlmDeviceFigures& f = a.figures[size_t(device)];
    const DeviceResult& d = a.decode.results[size_t(device)];
    const DeviceResult& p = a.prefill.results[size_t(device)];
    const LlmSettings& s = a.settings;
    const double perWeight = weightBytes(a);
    const QString B = qs(formatSI(d.bandwidth, "B/s"));
    const double kvToken = f.kvBytesPerToken;
    return {
        // The bytes the step moves, as the table counts them (decimal, as the bandwidth): the weights'
        // memory in GiB over TB/s, the embedding table whole with it, read 15.9 ms "at the least" beside a
        // TPOT of 15.0 ms on an RTX 4090 (issue 73 item 2).
        QStringLiteral("<h2>5. Why decode sits on the slope</h2><p>Each decode step makes one token per sequence, and "
                       "for it reads every weight once (of the embedding table, only the rows of the tokens it looks "
                       "up) with the KV cache: %1 over %2 is <b>%3</b> at the least. TPOT, the time per output token, "
                       "is %4 on the %5: the weights' bytes decide it, not the arithmetic.</p><p>A "
                       "weight read for one token does 2 FLOPs (a multiply-add) for its %6 bytes: about %7 FLOP/B at "
                       "batch %8, far left of the ridge at %9 FLOP/B.</p>")
            .arg(qs(formatBytes(d.totals.bytes)), B, qs(formatTime(d.totals.bytes / d.bandwidth, true)),
                qs(formatTime(f.tpot, true)), qs(d.device.name), bytesEach(perWeight), num(2.0 * s.batch / perWeight),
                countText(s.batch), num(d.ridge)),
        QStringLiteral(
            "<h2>6. What batching does</h2><p>B sequences decoded together read the weights once for all "
            "of them: the matrix rows' intensity grows B times, and while it stays left of the ridge the step "
            "takes about as long, so the batch makes B times the tokens per second: %1 per sequence, <b>%2 for "
            "the batch of %3</b> now.</p><p>The ridge is met near B = %4; before that, memory runs out: the "
            "largest batch of %5 tokens that fits is <b>%6</b>. The batch sweep (Shift+F10) draws the trade.</p>")
            .arg(num(f.tokensPerSecond), num(f.batchTokensPerSecond), countText(s.batch),
                countText(std::int64_t(std::ceil(d.ridge * perWeight / 2))),
                countText(std::int64_t(s.prompt) + s.generate),
                f.largestBatch > 0 ? countText(f.largestBatch) : QStringLiteral("none")),
        QStringLiteral("<h2>7. What the KV cache costs</h2><p>Each token kept for attention stores %1 "
                       "in every block: %2 \u00d7 %3 \u00d7 %4 bytes = <b>%5 per token</b>.</p>"
                       "<p>At %6 tokens of context for %7 sequence(s) that is %8 read on every step, beside the "
                       "weights; %9 tokens of context fit at this batch. %10</p>")
            .arg(arch.latent() ? QStringLiteral("a latent of its keys and values and a rotary key")
                               : QStringLiteral("its keys and values"),
                QString(arch.latent() ? QString() : QStringLiteral("2 \u00d7 ")) + countText(arch.layers)
                    + QStringLiteral(" blocks"),
                arch.latent()
                    ? QStringLiteral("(%1 + %2)").arg(countText(arch.kvLora), countText(arch.qkRope))
                    : QStringLiteral("%1 KV heads \u00d7 %2").arg(countText(arch.kvHeads), countText(arch.headDim)),
                bytesEach(s.kvBits / 8.0), qs(formatMemory(kvToken)), countText(a.context), countText(s.batch),
                qs(formatMemory(kvToken * a.context * s.batch)),
                f.largestContext > 0 ? countText(f.largestContext) : QStringLiteral("no"),
                arch.latent()
                    ? QStringLiteral(
                        "Latent attention caches %1 features a token where %2 heads' keys and values would "
                        "take %3; a narrower cache (8 bits) halves it again.")
                          .arg(countText(arch.kvLora + arch.qkRope), countText(arch.heads),
                              countText(std::int64_t(arch.heads) * (arch.qkNope + arch.qkRope + arch.vHeadDim)))
                    : QStringLiteral(
                        "Fewer KV heads (grouped-query attention) and a narrower cache (8 bits) shrink it.")),
        QStringLiteral(
            "<h2>8. Why prefill is compute-bound</h2><p>The prefill takes the %1 prompt tokens of each "
            "sequence at once: every weight read serves %2 tokens, so the matrix rows sit right of the ridge. "
            "TTFT, the time to the first token, is <b>%3</b>: %4.</p><p>Switch the Phase to prefill to see its "
            "rows move right.</p>")
            .arg(countText(s.prompt), countText(std::int64_t(s.prompt) * s.batch), qs(formatTime(f.ttft, true)),
                qs(p.verdict)),
    };
}

} // namespace rfx
