#include "cshim.h"
