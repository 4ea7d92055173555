#pragma once

#include "base/diagnostic.h"
#include "model/config.h"
#include "model/unet.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rfx {

/// One input of an imported model, as the file gives it, and what the configuration binds in it.
/// Symbolic or unknown extents ("batch", "height", -1) are bound: by their name when it says what they
/// are ("batch", "N", "sequence", "height", "width"), else by place: the first from the batch, the
/// spatial ones (extents 2 and 3 of an image, 3 and 4 of a video [N, C, D, H, W]) from the image
/// height and width; a sequence's symbolic extents ([N, L] token ids, [N, L, F], [N, C, L]) from the
/// image height, which is then the sequence length.
/// Extents the file fixes stay fixed.
struct OnnxInput {
    std::string name;
    std::vector<std::string> dims; ///< "batch", "3", "height": each extent as the file writes it
    bool floating = true; ///< a floating-point input (token ids are integers)
    int bits = 32; ///< an element's width (0: strings and unknown types)
    bool batchBound = false; ///< the batch control sets an extent (batchAt: 0, or one named as the batch)
    bool heightBound = false; ///< the image height sets extent 2 (3 of a video; the sequence of tokens)
    bool widthBound = false; ///< the image width sets extent 3 (4 of a video)
    std::vector<int> batchAt, heightAt, widthAt; ///< the extents the batch, the image height and width set
};

/// A decoder with past keys and values as inputs (Optimum's and ONNX Runtime GenAI's exports:
/// input_ids [batch, sequence_length], attention_mask [batch, total_sequence_length],
/// past_key_values.N.key / .value [batch, KV heads, past_sequence_length, head size]): the names of its
/// symbolic extents by role (empty where no input carries one) and its cache's shape.
struct OnnxDecoderDims {
    std::string batch, sequence, past, total; ///< the batch, the new tokens, the cached ones, their sum
    std::vector<std::string> pastInputs; ///< the cache's inputs, keys and values
    int layers = 0; ///< pastInputs / 2
    std::int64_t kvHeads = 0, headDim = 0;
    int kvBits = 0; ///< the cache's element width as the file stores it
    /// Optimum's merged decoder (decoder_model_merged.onnx): the one-element flag its If takes
    /// (use_cache_branch), false for the graph without the past (a prefill), true for the one with it.
    std::string cacheFlag;
};
/// The decoder the inputs describe: rank-4 floating inputs named "past..." of one KV-head count and head
/// size (at least a key and a value), the new tokens extent 1 of input_ids (inputs_embeds), the total
/// extent 1 of the attention mask where it has a name of its own. Nothing for other models.
std::optional<OnnxDecoderDims> recognizeDecoder(const std::vector<OnnxInput>& inputs);
/// The extents of a step of `tokens` new tokens over `past` cached ones, by the decoder's names.
std::map<std::string, std::int64_t> decoderExtents(const OnnxDecoderDims& d, std::int64_t tokens, std::int64_t past);
/// The configuration with what --dim leaves of a decoder bound: nothing past, the new tokens the image
/// height (the sequence length of an imported sequence model), the total their sum.
Config withDecoderDefaults(const OnnxDecoderDims& d, Config config);

/// A parsed ONNX model: parsed and checked once (weights dropped, shapes kept), then re-derived for
/// each configuration (batch, image size, precision, fusion) by shape inference. Thread-safe.
class OnnxModel {
public:
    struct Impl;
    explicit OnnxModel(std::unique_ptr<Impl> impl);
    ~OnnxModel();
    OnnxModel(const OnnxModel&) = delete;
    OnnxModel& operator=(const OnnxModel&) = delete;

    const std::string& file() const;
    /// The graph's name, or the file's name when the exporter left a generic one ("torch_jit", "main_graph").
    const std::string& name() const;
    const std::vector<OnnxInput>& inputs() const;
    /// Whether the batch / the image size change the model (some input has that extent symbolic).
    bool batchBound() const;
    bool imageBound() const;
    /// Why the batch or image controls cannot change this model ("the file fixes the input at 1x3x224x224"),
    /// empty when they can.
    std::string batchFixedReason() const;
    /// The batch the file fixes (extent 0 of the first input; 1 where that is not a number), 0 when the
    /// batch control sets it.
    int fixedBatch() const;
    std::string imageFixedReason() const;
    /// The image size the model opens at when the configuration names none: 224, or the first of the usual
    /// sizes at which every shape works out (572 for a valid-padded U-Net). Fixed extents win over it.
    int defaultImageSize() const;
    /// The decoder its inputs describe (past keys and values), if any.
    const std::optional<OnnxDecoderDims>& decoder() const;
    /// Floating-point initializers, each counted once, BatchNormalization's running statistics excluded.
    std::int64_t parameters() const;
    /// The bytes the parameters take as the file stores them (4-bit packs as packed), with the scales and
    /// zero points of quantized weights and the running statistics: what the weights occupy in memory.
    double weightBytes() const;
    /// The If nodes whose condition depends on the data, by the name --branch takes (Config::branches), as
    /// the model opened.
    const std::vector<std::string>& dataBranches() const;
    /// Warnings of the load itself (missing external weights, ...): every build repeats them.
    const std::vector<Diagnostic>& loadWarnings() const;

    /// The graph outputs' names and extents at this configuration, an output's extents absent when not
    /// known (tests/core/onnx/tst_onnx_conformance holds them against ONNX's own test data); throws
    /// std::runtime_error with the reason when shapes cannot be inferred.
    std::vector<std::pair<std::string, std::optional<std::vector<std::int64_t>>>> outputExtents(
        const Config& config) const;

    /// The network for this configuration: shapes inferred with the configuration's batch and image
    /// size, one or more rows per counted node. Recent configurations are cached.
    BuildResult build(const Config& config) const;

private:
    std::unique_ptr<Impl> m;
};

struct OnnxLoad {
    std::shared_ptr<const OnnxModel> model;
    std::string error; ///< set when model is null: "FILE: node 'x' (Conv): ..."
};

/// Called while a file is read with the bytes read so far and the file's size; return false to cancel.
using LoadProgress = std::function<bool(std::uint64_t done, std::uint64_t total)>;

/// Reads, parses and checks an ONNX file (onnx::checker, then shape inference at the default
/// configuration, so that a model that cannot be analysed is refused here, with the reason).
OnnxLoad loadOnnxModel(const std::string& path, const LoadProgress& progress = {});
/// The same from bytes in memory; `file` names the source in messages (the fuzz target).
OnnxLoad parseOnnxModel(std::string_view bytes, const std::string& file);
/// loadOnnxModel, cached by path, modification time and size (what each slider step uses). `progress`
/// sees the reading when the file is not cached yet (the window opens models through it, on a worker
/// thread); a cancelled load is not cached.
OnnxLoad cachedOnnxModel(const std::string& path, const LoadProgress& progress = {});

/// How imported operators are counted, for every report's conventions (README "ONNX models").
std::string onnxConventions();

/// The largest file protobuf can parse (just under 2 GiB); bigger models keep their weights as
/// external data, which the importer does not need.
inline constexpr std::uint64_t kMaxOnnxFileBytes = (std::uint64_t(1) << 31) - 1;

} // namespace rfx
