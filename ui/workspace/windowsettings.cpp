#include "workspace/windowsettings.h"

#include "io/options.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace rfx {

namespace {
// Every QSettings key in one place; bump kWindowStateVersion when the meaning of a key changes.
namespace Key {
constexpr auto Geometry = "window/geometry";
constexpr auto State = "window/state";
constexpr auto Splitter = "window/splitter";
constexpr auto Work = "work/session"; // the last work, as a session document
// Earlier versions' keys for the work, read when Work is missing and removed when it is written.
constexpr auto Config = "analysis/configArgs";
constexpr auto Devices = "analysis/devices";
constexpr auto Overlay = "view/overlay";
constexpr auto ConvOnly = "view/convolutionsOnly";
constexpr auto TopN = "view/topN";
constexpr auto Recent = "session/recentFiles";
constexpr auto LastDir = "session/lastDirectory";
constexpr auto LastExportDir = "export/lastDirectory";
} // namespace Key
QLatin1String key(const char* k) { return QLatin1String(k); }
} // namespace

StoredWindow loadStoredWindow()
{
    QSettings settings;
    StoredWindow s;
    s.geometry = settings.value(key(Key::Geometry)).toByteArray();
    s.state = settings.value(key(Key::State)).toByteArray();
    s.splitter = settings.value(key(Key::Splitter)).toByteArray();
    return s;
}

void saveStoredWindow(const StoredWindow& s)
{
    QSettings settings;
    settings.setValue(key(Key::Geometry), s.geometry);
    settings.setValue(key(Key::State), s.state);
    settings.setValue(key(Key::Splitter), s.splitter);
}

std::optional<Session> loadLastWork()
{
    QSettings settings;
    if (settings.contains(key(Key::Work))) {
        std::string error;
        std::optional<Session> work = sessionFromJson(settings.value(key(Key::Work)).toString().toStdString(), error);
        if (work && validate(work->config))
            work.reset(); // a configuration this version refuses: the defaults instead
        return work;
    }
    // Kept by an earlier version: the configuration as the command-line arguments that reproduce it.
    const QStringList saved = settings.value(key(Key::Config)).toStringList();
    if (saved.isEmpty() || !settings.contains(key(Key::Devices)))
        return std::nullopt;
    std::vector<std::string> args;
    for (const QString& a : saved)
        args.push_back(a.toStdString());
    ConfigOptions parsed;
    std::string error;
    if (!parseConfigArgs(args, parsed, error) || validate(parsed.config))
        return std::nullopt;
    Session work;
    work.config = parsed.config;
    for (const QString& id : settings.value(key(Key::Devices)).toStringList())
        work.devices.push_back(id.toStdString());
    work.view.overlay = settings.value(key(Key::Overlay), false).toBool();
    work.view.filter.convolutionsOnly = settings.value(key(Key::ConvOnly), false).toBool();
    work.view.filter.topN = settings.value(key(Key::TopN), 0).toInt();
    return work;
}

void saveLastWork(const Session& work)
{
    QSettings settings;
    settings.setValue(key(Key::Work), QString::fromStdString(sessionToJson(work)));
    for (const char* old : { Key::Config, Key::Devices, Key::Overlay, Key::ConvOnly, Key::TopN })
        settings.remove(key(old));
}

QStringList recentFiles() { return QSettings().value(key(Key::Recent)).toStringList(); }

void addRecentFile(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(key(Key::Recent)).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    recent.removeAll(abs);
    recent.prepend(abs);
    while (recent.size() > kMaxRecentFiles)
        recent.removeLast();
    settings.setValue(key(Key::Recent), recent);
    settings.setValue(key(Key::LastDir), QFileInfo(abs).absolutePath());
}

QString lastDirectory(const QString& otherwise) { return QSettings().value(key(Key::LastDir), otherwise).toString(); }

void setLastDirectory(const QString& dir) { QSettings().setValue(key(Key::LastDir), dir); }

QString lastExportDirectory()
{
    const QString last = QSettings().value(key(Key::LastExportDir)).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir())
        return last;
    for (const auto where : { QStandardPaths::PicturesLocation, QStandardPaths::DocumentsLocation }) {
        const QString dir = QStandardPaths::writableLocation(where);
        if (!dir.isEmpty() && QFileInfo(dir).isDir())
            return dir;
    }
    return QDir::homePath();
}

void setLastExportDirectory(const QString& dir) { QSettings().setValue(key(Key::LastExportDir), dir); }

} // namespace rfx
