#include <SDL2/SDL_vulkan.h>
#include "CWayland.h"

int hee_sdl_vulkan_load_library(const char *path) { return SDL_Vulkan_LoadLibrary(path); }

void hee_sdl_vulkan_unload_library(void) { SDL_Vulkan_UnloadLibrary(); }
