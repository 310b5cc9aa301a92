// Lowering.h — fixture of the layering check: a lower-stage header.
#pragma once
