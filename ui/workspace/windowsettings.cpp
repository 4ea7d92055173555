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
    // The configuration is stored as the command-line arguments that reproduce it.
    const QStringList saved = settings.value(key(Key::Config)).toStringList();
    std::vector<std::string> args;
    for (const QString& a : saved)
        args.push_back(a.toStdString());
    ConfigOptions parsed;
    std::string error;
    if (!saved.isEmpty() && parseConfigArgs(args, parsed, error) && !validate(parsed.config))
        s.config = parsed.config;
    if (settings.contains(key(Key::Devices)))
        s.devices = settings.value(key(Key::Devices)).toStringList();
    s.overlay = settings.value(key(Key::Overlay), false).toBool();
    s.convolutionsOnly = settings.value(key(Key::ConvOnly), false).toBool();
    s.topN = settings.value(key(Key::TopN), 0).toInt();
    return s;
}

void saveStoredWindow(const StoredWindow& s)
{
    QSettings settings;
    settings.setValue(key(Key::Geometry), s.geometry);
    settings.setValue(key(Key::State), s.state);
    settings.setValue(key(Key::Splitter), s.splitter);
    if (s.config) {
        QStringList args;
        for (const std::string& a : configToArgs(*s.config))
            args.append(QString::fromStdString(a));
        settings.setValue(key(Key::Config), args);
    }
    if (s.devices)
        settings.setValue(key(Key::Devices), *s.devices);
    settings.setValue(key(Key::Overlay), s.overlay);
    settings.setValue(key(Key::ConvOnly), s.convolutionsOnly);
    settings.setValue(key(Key::TopN), s.topN);
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
