%:include <../x>
asm(".inc" "bin \"x\"");
#define S(x) #x
#include S(a.h)
