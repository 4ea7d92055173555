// Device files on disk: reading one (size limit, read errors), the library of every folder (shipped,
// --device-dir, the user's), where those folders are.
#include "devices/device_loader.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#ifndef ROOFLINE_SOURCE_DEVICES_DIR
#define ROOFLINE_SOURCE_DEVICES_DIR ""
#endif

namespace rfx {

namespace {
constexpr std::uintmax_t kMaxDeviceFileBytes = 1 << 20; // 1 MiB; the largest shipped file is 1.8 KiB
} // namespace

DeviceLoad loadDeviceFile(const std::filesystem::path& path)
{
    DeviceLoad result;
    const std::string file = path.string();
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) {
        result.diagnostics.push_back({ Severity::Error, file, {}, "cannot read: " + ec.message() });
        return result;
    }
    if (size > kMaxDeviceFileBytes) {
        result.diagnostics.push_back({ Severity::Error, file, {},
            "file is " + std::to_string(size) + " bytes; a device file may be at most 1 MiB" });
        return result;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        result.diagnostics.push_back({ Severity::Error, file, {}, "cannot open for reading" });
        return result;
    }
    std::ostringstream text;
    text << in.rdbuf();
    result = parseDevice(text.str(), file);
    if (result.device) {
        const std::string stem = path.stem().string();
        if (stem != result.device->id)
            result.diagnostics.push_back({ Severity::Warning, file, "id",
                "id \"" + result.device->id + "\" differs from the file name \"" + stem + "\"" });
    }
    return result;
}

const Device* DeviceLibrary::find(std::string_view id) const
{
    auto it = std::find_if(devices.begin(), devices.end(), [&](const Device& d) { return d.id == id; });
    return it == devices.end() ? nullptr : &*it;
}

DeviceLibrary::Choice DeviceLibrary::choose(const std::vector<std::string>& ids) const
{
    Choice c;
    auto add = [&c](const Device& d) {
        if (std::none_of(c.devices.begin(), c.devices.end(), [&](const Device& x) { return x.id == d.id; }))
            c.devices.push_back(d);
    };
    for (const std::string& id : ids) {
        if (id == "all") {
            for (const Device& d : devices)
                add(d);
        } else if (const Device* d = find(id)) {
            add(*d);
        } else if (std::find(c.unknown.begin(), c.unknown.end(), id) == c.unknown.end()) {
            c.unknown.push_back(id);
        }
    }
    return c;
}

DeviceLibrary loadDeviceLibrary(const std::vector<std::filesystem::path>& folders)
{
    DeviceLibrary lib;
    for (size_t f = 0; f < folders.size(); ++f) {
        const auto& folder = folders[f];
        std::error_code ec;
        if (!std::filesystem::is_directory(folder, ec))
            continue;
        std::vector<std::filesystem::path> files;
        for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
            if (entry.path().extension() == ".json")
                files.push_back(entry.path());
        }
        if (ec)
            lib.diagnostics.push_back({ Severity::Error, folder.string(), {}, "cannot list folder: " + ec.message() });
        std::sort(files.begin(), files.end());
        std::vector<std::string> idsInFolder;
        for (const auto& path : files) {
            DeviceLoad load = loadDeviceFile(path);
            lib.diagnostics.insert(lib.diagnostics.end(), load.diagnostics.begin(), load.diagnostics.end());
            if (!load.device)
                continue;
            Device d = std::move(*load.device);
            d.userDevice = f > 0;
            if (std::find(idsInFolder.begin(), idsInFolder.end(), d.id) != idsInFolder.end()) {
                lib.diagnostics.push_back({ Severity::Error, d.file, "id",
                    "duplicate id \"" + d.id + "\" in the same folder; this file is ignored" });
                continue;
            }
            idsInFolder.push_back(d.id);
            auto existing
                = std::find_if(lib.devices.begin(), lib.devices.end(), [&](const Device& x) { return x.id == d.id; });
            if (existing != lib.devices.end()) {
                lib.diagnostics.push_back(
                    { Severity::Info, d.file, "id", "overrides device \"" + d.id + "\" from " + existing->file });
                *existing = std::move(d);
            } else {
                lib.devices.push_back(std::move(d));
            }
        }
    }
    std::stable_sort(lib.devices.begin(), lib.devices.end(), [](const Device& a, const Device& b) {
        if (a.kind != b.kind)
            return a.kind == "gpu";
        return a.name < b.name;
    });
    return lib;
}

std::filesystem::path shippedDeviceDir(const std::filesystem::path& executableDir)
{
    if (const char* env = std::getenv("ROOFLINE_DEVICES_DIR"); env && *env)
        return env;
    std::error_code ec;
    const auto installed = executableDir / ".." / "share" / "roofline-explorer" / "devices";
    if (!executableDir.empty() && std::filesystem::is_directory(installed, ec))
        return std::filesystem::weakly_canonical(installed, ec);
    return ROOFLINE_SOURCE_DEVICES_DIR;
}

std::filesystem::path userDeviceDir()
{
#if defined(_WIN32)
    if (const char* appdata = std::getenv("APPDATA"); appdata && *appdata)
        return std::filesystem::path(appdata) / "roofline-explorer" / "devices";
    return {};
#elif defined(__APPLE__)
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / "Library" / "Application Support" / "roofline-explorer" / "devices";
    return {};
#else
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "roofline-explorer" / "devices";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".local" / "share" / "roofline-explorer" / "devices";
    return {};
#endif
}

std::vector<std::filesystem::path> deviceSearchPath(
    const std::filesystem::path& executableDir, const std::vector<std::filesystem::path>& extraDirs)
{
    std::vector<std::filesystem::path> dirs { shippedDeviceDir(executableDir) };
    if (auto user = userDeviceDir(); !user.empty())
        dirs.push_back(user);
    dirs.insert(dirs.end(), extraDirs.begin(), extraDirs.end());
    return dirs;
}

} // namespace rfx
