#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace rfx {

/// What tells one version of a file from the next without reading it: modification time and size.
struct FileStamp {
    std::filesystem::file_time_type mtime;
    std::uintmax_t size = 0;
    bool operator==(const FileStamp&) const = default;
};

/// The file's stamp, or nothing and `error` (the system's reason) when it cannot be read.
inline std::optional<FileStamp> fileStamp(const std::string& path, std::string& error)
{
    std::error_code ec;
    const auto mtime = std::filesystem::last_write_time(path, ec);
    const auto size = ec ? 0 : std::filesystem::file_size(path, ec);
    if (ec) {
        error = ec.message();
        return std::nullopt;
    }
    return FileStamp { mtime, size };
}

/// What was made of a file (parsed network, model), by path, kept while the file's stamp is the
/// same: a slider step rebuilds the network, and parsing each file once per modification keeps
/// that fast. Thread-safe; a handful of files per session, so a full cache simply starts over.
template <typename T> class FileCache {
public:
    explicit FileCache(std::size_t capacity = 8)
        : m_capacity(capacity)
    {
    }

    std::optional<T> find(const std::string& path, const FileStamp& stamp) const
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_entries.find(path);
        if (it == m_entries.end() || !(it->second.first == stamp))
            return std::nullopt;
        return it->second.second;
    }

    void store(const std::string& path, const FileStamp& stamp, T value)
    {
        std::lock_guard lock(m_mutex);
        if (m_entries.size() >= m_capacity && !m_entries.contains(path))
            m_entries.clear();
        m_entries.insert_or_assign(path, std::pair { stamp, std::move(value) });
    }

private:
    mutable std::mutex m_mutex;
    std::map<std::string, std::pair<FileStamp, T>> m_entries;
    std::size_t m_capacity;
};

} // namespace rfx
