#pragma once
// A network the tst_roofline* tests work by hand.
#include "model/network.h"

namespace rfx::test {

// One 3x3 convolution 1x64x58x58 -> 1x64x56x56 followed by a ReLU.
inline Network convRelu()
{
    Network net;
    net.name = "test";
    net.input = { 1, 64, 58, 58 };
    Layer c;
    c.name = "conv";
    c.op = Op::Conv;
    c.inputs = { -1 };
    c.inShapes = { net.input };
    c.kh = c.kw = 3;
    c.out = { 1, 64, 56, 56 };
    Layer r;
    r.name = "relu";
    r.op = Op::ReLU;
    r.inputs = { 0 };
    r.inShapes = { c.out };
    r.out = c.out;
    net.layers = { c, r };
    return net;
}

} // namespace rfx::test
