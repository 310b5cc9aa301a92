// FetchModel.h — fixture of the layering check: an engine model that includes the lowering (up the pipeline).
#pragma once

#include "Lowering.h"
