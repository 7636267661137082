#ifndef HEE_VULKAN_STUB_H
#define HEE_VULKAN_STUB_H
// libHeeVulkanStub.so: what SDL 2.26 needs of a Vulkan loader to create a bare Wayland
// window, and nothing more. See vulkan_stub.c.

/// The Vulkan entry point SDL looks up (`vkGetInstanceProcAddr`); it knows one command,
/// `vkEnumerateInstanceExtensionProperties`, and returns NULL for every other.
void *vkGetInstanceProcAddr(void *instance, const char *name);

#endif
