#include <fontconfig/fontconfig.h>
/// `FC_FILE`, `FC_CHARSET`, ... are string macros; re-exported as constants.
static const char *const HEE_FC_FILE = FC_FILE;
static const char *const HEE_FC_CHARSET = FC_CHARSET;
static const char *const HEE_FC_LANG = FC_LANG;
static const char *const HEE_FC_INDEX = FC_INDEX;
static const char *const HEE_FC_COLOR = FC_COLOR;
