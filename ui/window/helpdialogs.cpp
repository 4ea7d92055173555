#include "window/helpdialogs.h"

#include "base/version.h"

#include <QMessageBox>
#include <QObject>

namespace rfx {

void showConventions(QWidget* parent)
{
    QMessageBox box(parent);
    box.setWindowTitle(QObject::tr("Conventions"));
    box.setTextFormat(Qt::RichText);
    box.setText(QObject::tr(
        "<h3>How Roofline Explorer counts</h3>"
        "<p><b>FLOP</b>: one floating-point operation; a fused multiply-add counts 2.<br>"
        "<b>Convolution</b>: 2\u00b7N\u00b7Cout\u00b7Hout\u00b7Wout\u00b7(Cin/groups)\u00b7Kh\u00b7Kw. "
        "<b>Transposed convolution</b>: counted at input positions (equal to the output count when "
        "kernel = stride).<br>"
        "<b>Elementwise rows</b>: bias 1, ReLU 1, batch norm 2 FLOP per element; max-pool k\u00b2\u22121 per "
        "output; concat 0.</p>"
        "<p><b>Bytes</b>: compulsory DRAM traffic per layer: inputs and weights read once, output written "
        "once; element size = bits/8.<br><b>Intensity</b> I = FLOPs/bytes.</p>"
        "<p><b>Roofline</b>: attainable P(I) = min(P<sub>peak</sub>, I\u00b7B); ridge I* = P<sub>peak</sub>/B; "
        "memory-bound if I &lt; I*. Layer time = max(F/P<sub>peak</sub>, Q/B); network time = sum.</p>"
        "<p><b>Training</b>: forward + backward (a convolution's data and weight gradients each cost its "
        "forward FLOPs) + an optimizer step over the parameters.</p>"
        "<p>Memory in GiB (2<sup>30</sup> bytes); traffic and bandwidth in decimal GB.</p>"));
    box.exec();
}

void showAbout(QWidget* parent)
{
    QMessageBox::about(parent, QObject::tr("About Roofline Explorer"),
        QObject::tr(
            "<h3>Roofline Explorer %1</h3><p>Where a convolutional network's time goes on a GPU or CPU, and why: "
            "per-layer FLOPs, bytes and arithmetic intensity held against each device's roofline.</p>"
            "<p>Built on the classic U-Net (Ronneberger et al. 2015) and the devices of three studies: Salim et al. "
            "2022 (U-Net roofline analysis), Li et al. 2016 (GPU CNN performance), Castro et al. (energy-based "
            "tuning on multi-GPUs).</p>")
            .arg(QString::fromLatin1(kVersion)));
}

} // namespace rfx
