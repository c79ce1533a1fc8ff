#include "inc.h"
#if __has_include("inc.h") && defined(__has_include)
#endif
#if __has_include(</etc/x>)
#endif
