// Anthy's declarations (Debian's libanthy-dev): the types, constants and prototypes the
// app's dlsym table is written against. Its integer macros (NTH_UNCONVERTED_CANDIDATE,
// ANTHY_UTF8_ENCODING) import into Swift as they are.
#include <anthy/anthy.h>
