#pragma once

class QWidget;

namespace rfx {

/// Help > Conventions: how FLOPs, bytes, intensity and times are counted, in one page.
void showConventions(QWidget* parent);
/// Help > About.
void showAbout(QWidget* parent);

} // namespace rfx
