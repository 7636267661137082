// A stand-in for the Vulkan loader, for one purpose: SDL 2.26 creates every Wayland window
// with an OpenGL (EGL) surface unless the window is created for Vulkan, and loading EGL
// loads Mesa and, with it, LLVM (about 50 MB resident and 60-90 ms of start-up) although
// HeeKeyboard never draws with OpenGL: it draws on the CPU and presents through wl_shm
// (HeeApp/WaylandPresenter). SDL 2.30 no longer does this (libsdl-org/SDL#7875).
//
// Created with SDL_WINDOW_VULKAN, SDL only checks that "the Vulkan loader" offers the two
// instance extensions a Wayland window needs; it creates no instance or surface unless the
// application asks. This library answers that one question, as the Vulkan specification
// describes it, so SDL makes a bare wl_surface. HeeApp loads it with SDL_Vulkan_LoadLibrary
// on the Wayland path only (see HeeApp/WaylandBareWindow.swift); no other program should.
#include <stdint.h>
#include <string.h>
#include "HeeVulkanStub.h"

// From the Vulkan specification: VK_MAX_EXTENSION_NAME_SIZE, VkExtensionProperties, VkResult.
enum { MAX_EXTENSION_NAME_SIZE = 256 };
typedef struct {
    char extensionName[MAX_EXTENSION_NAME_SIZE];
    uint32_t specVersion;
} ExtensionProperties;
enum { VK_SUCCESS = 0, VK_INCOMPLETE = 5, VK_ERROR_LAYER_NOT_PRESENT = -6 };

static const char *const extension_names[] = {"VK_KHR_surface", "VK_KHR_wayland_surface"};
enum { EXTENSION_COUNT = sizeof extension_names / sizeof extension_names[0] };

// vkEnumerateInstanceExtensionProperties: the count when `properties` is NULL, else up to
// `*count` entries (VK_INCOMPLETE when that is fewer than all).
static int32_t enumerate_instance_extension_properties(const char *layer, uint32_t *count,
                                                        ExtensionProperties *properties) {
    if (layer != NULL) {
        return VK_ERROR_LAYER_NOT_PRESENT;
    }
    if (properties == NULL) {
        *count = EXTENSION_COUNT;
        return VK_SUCCESS;
    }
    uint32_t n = *count < EXTENSION_COUNT ? *count : EXTENSION_COUNT;
    for (uint32_t i = 0; i < n; i++) {
        memset(&properties[i], 0, sizeof properties[i]);
        strncpy(properties[i].extensionName, extension_names[i], MAX_EXTENSION_NAME_SIZE - 1);
        properties[i].specVersion = 1;
    }
    *count = n;
    return n < EXTENSION_COUNT ? VK_INCOMPLETE : VK_SUCCESS;
}

void *vkGetInstanceProcAddr(void *instance, const char *name) {
    if (instance == NULL && name != NULL && strcmp(name, "vkEnumerateInstanceExtensionProperties") == 0) {
        return (void *)enumerate_instance_extension_properties;
    }
    return NULL;
}
