// roofline-explorer: the desktop application. Everything but argument handling lives in roofline_ui.
#include "base/version.h"
#include "gui_command_line.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

namespace {
bool hasEnv(const char* name)
{
    const char* v = std::getenv(name);
    return v && *v;
}
} // namespace

int main(int argc, char** argv)
{
    // Options first, before QApplication: --help, --version and a bad option need no display (Qt
    // aborts when it finds none, exit status 134).
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args.append(QString::fromLocal8Bit(argv[i]));
    const rfx::GuiOptions options = rfx::parseGuiOptions(args);
    if (!options.error.isEmpty()) {
        std::fprintf(stderr, "roofline-explorer: %s\nTry 'roofline-explorer --help'.\n", qPrintable(options.error));
        return 2;
    }
    if (options.help) {
        std::fputs(qPrintable(rfx::guiHelpText()), stdout);
        return 0;
    }
    if (options.version) {
        std::printf("roofline-explorer %s\n", rfx::kVersion);
        return 0;
    }
#if defined(Q_OS_LINUX)
    if (!hasEnv("DISPLAY") && !hasEnv("WAYLAND_DISPLAY") && !hasEnv("QT_QPA_PLATFORM")) {
        std::fputs("roofline-explorer: no display (neither DISPLAY nor WAYLAND_DISPLAY is set).\n"
                   "Start it in a desktop session; headless, use roofline-cli (same analysis and figures),\n"
                   "or QT_QPA_PLATFORM=offscreen roofline-explorer --screenshot FILE.png.\n",
            stderr);
        return 2;
    }
#endif

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("roofline-explorer"));
    QApplication::setApplicationDisplayName(QStringLiteral("Roofline Explorer"));
    QApplication::setOrganizationName(QStringLiteral("roofline-explorer"));
    QApplication::setApplicationVersion(QString::fromLatin1(rfx::kVersion));
    QApplication::setDesktopFileName(QStringLiteral("io.github.roofline_explorer.RooflineExplorer"));

    rfx::MainWindow window(options);
    if (!options.screenshot.isEmpty()) {
        // Render the window for the given options, save it and exit (for docs and tests).
        window.resize(options.size.isValid() ? options.size : QSize(1600, 1000));
        window.show();
        QTimer::singleShot(200, &window, [&] {
            QApplication::processEvents();
            const bool ok = window.grab().save(options.screenshot);
            if (!ok)
                std::fprintf(stderr, "roofline-explorer: cannot write %s\n", qPrintable(options.screenshot));
            QApplication::exit(ok ? 0 : 1);
        });
        return QApplication::exec();
    }
    if (options.size.isValid())
        window.resize(options.size);
    window.show();
    return QApplication::exec();
}
