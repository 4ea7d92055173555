#include "style/chartfit.h"

#include <QTextDocument>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace rfx {

int labelStride(
    const std::vector<double>& centres, const std::vector<double>& extents, const std::vector<int>& index, double gap)
{
    const int count = int(centres.size());
    for (int n = 1; n < std::max(2, count); ++n) {
        bool fits = true;
        int previous = -1;
        for (int i = 0; i < count && fits; ++i) {
            if (index[size_t(i)] % n != 0)
                continue;
            if (previous >= 0) {
                const double distance = std::abs(centres[size_t(i)] - centres[size_t(previous)]);
                fits = distance >= (extents[size_t(i)] + extents[size_t(previous)]) / 2 + gap;
            }
            previous = i;
        }
        if (fits)
            return n;
    }
    return std::max(1, count);
}

QString firstThatFits(const QStringList& forms, const QFontMetricsF& fm, double room, bool allowNone)
{
    for (const QString& f : forms)
        if (fm.horizontalAdvance(f) <= room)
            return f;
    return allowNone || forms.isEmpty() ? QString() : forms.back();
}

QString fitHtmlLines(const std::vector<QStringList>& lines, const QFont& font, double width)
{
    QStringList out;
    QTextDocument doc;
    doc.setDocumentMargin(0);
    doc.setDefaultFont(font);
    for (const QStringList& forms : lines) {
        QString chosen = forms.isEmpty() ? QString() : forms.back();
        for (const QString& f : forms) {
            doc.setHtml(f);
            if (doc.idealWidth() <= width) {
                chosen = f;
                break;
            }
        }
        out << chosen;
    }
    return out.join(QStringLiteral("<br>"));
}

bool crosses(const QLineF& segment, const QRectF& rect)
{
    if (rect.contains(segment.p1()) || rect.contains(segment.p2()))
        return true;
    const QLineF edges[] = { { rect.topLeft(), rect.topRight() }, { rect.topRight(), rect.bottomRight() },
        { rect.bottomRight(), rect.bottomLeft() }, { rect.bottomLeft(), rect.topLeft() } };
    for (const QLineF& e : edges)
        if (segment.intersects(e, nullptr) == QLineF::BoundedIntersection)
            return true;
    return false;
}

} // namespace rfx
