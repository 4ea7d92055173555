#include "table/layerrows.h"

namespace rfx {

void LayerRows::build(const std::vector<LayerResult>& layers)
{
    m_blocks = rowBlocks(layers);
    m_lines.clear();
    m_lines.reserve(layers.size() + m_blocks.size());
    m_rowOfLayer.assign(layers.size(), -1);
    size_t next = 0; // the next block
    for (int i = 0; i < int(layers.size()); ++i) {
        int block = -1;
        if (next < m_blocks.size() && m_blocks[next].first == i)
            m_lines.push_back({ -1, int(next++) });
        if (!m_blocks.empty() && next > 0 && i < m_blocks[next - 1].first + m_blocks[next - 1].count)
            block = int(next - 1);
        m_rowOfLayer[size_t(i)] = int(m_lines.size());
        m_lines.push_back({ i, block });
    }
    updateTotals(layers);
}

void LayerRows::updateTotals(const std::vector<LayerResult>& layers)
{
    m_totals.clear();
    m_totals.reserve(m_blocks.size());
    for (const RowBlock& b : m_blocks)
        m_totals.push_back(blockTotals(layers, b));
}

int LayerRows::rowOfLayer(int layer) const
{
    return layer >= 0 && size_t(layer) < m_rowOfLayer.size() ? m_rowOfLayer[size_t(layer)] : -1;
}

int LayerRows::rowOfBlock(int block) const
{
    if (block < 0 || size_t(block) >= m_blocks.size())
        return -1;
    return rowOfLayer(m_blocks[size_t(block)].first) - 1;
}

bool LayerRows::folded(int block) const
{
    return block >= 0 && size_t(block) < m_blocks.size() && m_folded.count(m_blocks[size_t(block)].name) > 0;
}

void LayerRows::setFolded(int block, bool fold)
{
    if (block < 0 || size_t(block) >= m_blocks.size())
        return;
    if (fold)
        m_folded.insert(m_blocks[size_t(block)].name);
    else
        m_folded.erase(m_blocks[size_t(block)].name);
}

bool LayerRows::hiddenByFold(int row) const
{
    const Line& l = line(row);
    return l.layer >= 0 && folded(l.block);
}

} // namespace rfx
