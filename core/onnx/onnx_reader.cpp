// Reading ONNX files: protobuf parsing without the weights (onnx_skim.cpp; progress, cancel, the 2 GiB
// limit), from a file, from bytes (the fuzz target), and the cache by path, modification time and size
// that each slider step uses.
#include "onnx/onnx_model.h"

#include "base/file_cache.h"
#include "onnx/onnx_internal.h"

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

namespace rfx {

using namespace onnximport;

namespace {

// protobuf reads through this, so that a large file reports progress and can be cancelled.
class ProgressStream : public google::protobuf::io::CopyingInputStream {
public:
    ProgressStream(std::istream& in, std::uint64_t total, const LoadProgress& progress)
        : m_in(in)
        , m_total(total)
        , m_progress(progress)
    {
    }
    int Read(void* buffer, int size) override
    {
        if (m_cancelled)
            return -1;
        m_in.read(static_cast<char*>(buffer), size);
        const auto got = m_in.gcount();
        m_done += std::uint64_t(got);
        if (m_progress && !m_progress(m_done, m_total)) {
            m_cancelled = true;
            return -1;
        }
        return int(got);
    }
    bool cancelled() const { return m_cancelled; }

private:
    std::istream& m_in;
    std::uint64_t m_total;
    std::uint64_t m_done = 0;
    const LoadProgress& m_progress;
    bool m_cancelled = false;
};

} // namespace

OnnxLoad parseOnnxModel(std::string_view bytes, const std::string& file)
{
    OnnxLoad out;
    try {
        if (bytes.empty())
            throw ImportError(file + ": the file is empty");
        onnx::ModelProto model;
        google::protobuf::io::ArrayInputStream stream(
            bytes.data(), int(std::min<std::size_t>(bytes.size(), kMaxOnnxFileBytes)));
        if (bytes.size() > kMaxOnnxFileBytes || !skimModel(stream, model))
            throw ImportError(
                file + ": not an ONNX model (not a valid protobuf message: another format, or truncated)");
        out.model = finishModel(std::move(model), file);
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    return out;
}

OnnxLoad loadOnnxModel(const std::string& path, const LoadProgress& progress)
{
    OnnxLoad out;
    try {
        std::error_code ec;
        const std::uint64_t size = std::filesystem::file_size(path, ec);
        if (ec)
            throw ImportError(path + ": cannot read the model file (" + ec.message() + ")");
        if (size == 0)
            throw ImportError(path + ": the file is empty");
        if (size > kMaxOnnxFileBytes)
            throw ImportError(path + ": the file is " + std::to_string(size / (1 << 20))
                + " MiB; protobuf reads ONNX files under 2 GiB. Save the weights as external data "
                  "(onnx.save_model(..., save_as_external_data=True)): only the graph is needed here");
        std::ifstream in(path, std::ios::binary);
        if (!in)
            throw ImportError(path + ": cannot open the model file for reading");
        ProgressStream stream(in, size, progress);
        google::protobuf::io::CopyingInputStreamAdaptor adaptor(&stream, 1 << 20);
        onnx::ModelProto model;
        const bool parsed = skimModel(adaptor, model); // the weights' bytes are skipped, never held
        if (stream.cancelled())
            throw ImportError(path + ": opening was cancelled");
        if (!parsed)
            throw ImportError(
                path + ": not an ONNX model (not a valid protobuf message: another format, or truncated)");
        out.model = finishModel(std::move(model), path);
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    return out;
}

OnnxLoad cachedOnnxModel(const std::string& path, const LoadProgress& progress)
{
    static FileCache<OnnxLoad> cache;
    std::string why;
    const auto stamp = fileStamp(path, why);
    if (!stamp)
        return { nullptr, path + ": cannot read the model file (" + why + ")" };
    if (auto cached = cache.find(path, *stamp))
        return *cached;
    // Read without the lock: a large model on the window's worker thread must not stall a slider step
    // on another model.
    bool cancelled = false;
    OnnxLoad load = loadOnnxModel(path, [&](std::uint64_t done, std::uint64_t total) {
        cancelled = progress && !progress(done, total);
        return !cancelled;
    });
    if (!cancelled)
        cache.store(path, *stamp, load);
    return load;
}

} // namespace rfx
