// The clip's own PipeWire playback stream (see CPipeWire.h and docs/user-guide.md, "Sound").
//
// Why not SDL's PipeWire driver: an SDL audio device costs a wake-up per buffer while open
// (SDL 2.26's driver asks PipeWire to run its stream always, and writes silence while the
// device is paused), so the app closes it after 3 s of silence; reopening it at the next press
// makes a new stream that WirePlumber must link before a sample plays (18-22 ms on a quiet
// machine). This stream is connected once; while silent it is made inactive, which takes it
// out of the graph with its links kept, and a press activates it: one message to the server,
// then the next cycle.
//
// Threads: the stream's events run on a pw_thread_loop of its own; `process` runs on
// PipeWire's real-time data thread (PW_STREAM_FLAG_RT_PROCESS) and touches only atomics and
// the clip, which does not change while the stream exists.
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pipewire/pipewire.h>
#include <spa/param/audio/format-utils.h>

#include "CPipeWire.h"

#define HEE_PW_SONAME "libpipewire-0.3.so.0"

// libpipewire's functions, looked up by name (the types are its headers' declarations).
#define HEE_PW_FUNCTIONS(X) \
    X(pw_init) X(pw_thread_loop_new) X(pw_thread_loop_destroy) X(pw_thread_loop_start) X(pw_thread_loop_stop) \
    X(pw_thread_loop_lock) X(pw_thread_loop_unlock) X(pw_thread_loop_get_loop) X(pw_properties_new) \
    X(pw_properties_setf) X(pw_stream_new_simple) X(pw_stream_destroy) X(pw_stream_connect) \
    X(pw_stream_set_active) X(pw_stream_dequeue_buffer) X(pw_stream_queue_buffer)
#define HEE_PW_POINTER(name) static __typeof__(name) *hee_##name;
HEE_PW_FUNCTIONS(HEE_PW_POINTER)

struct hee_pw_clip {
    struct pw_thread_loop *loop;
    struct pw_stream *stream;
    int16_t *frames;             // interleaved stereo
    size_t count;                // frames
    unsigned quantum;
    atomic_size_t position;      // next frame to play
    atomic_int playing;
    atomic_uint gain_bits;       // a float's bits
    atomic_int state;            // 1 streaming, 0 not, -1 failed
    atomic_uint_fast64_t processed;
    atomic_uint_fast64_t last_process;
    char error[160];             // the failure's reason; written and read under the loop's lock
};

static uint64_t monotonic_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int hee_pw_load(char *error, size_t size) {
    static int loaded;   // main thread only
    if (loaded)
        return 0;
    void *library = dlopen(HEE_PW_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(error, size, "%s", dlerror());
        return -1;
    }
#define HEE_PW_LOOKUP(name)                                                          \
    if (!(hee_##name = (__typeof__(name) *)dlsym(library, #name))) {                 \
        snprintf(error, size, "%s is missing from %s", #name, HEE_PW_SONAME);        \
        return -1;                                                                   \
    }
    HEE_PW_FUNCTIONS(HEE_PW_LOOKUP)
    hee_pw_init(NULL, NULL);
    loaded = 1;
    return 0;
}

static void on_state_changed(void *data, enum pw_stream_state old, enum pw_stream_state state, const char *message) {
    (void)old;
    struct hee_pw_clip *clip = data;
    if (state == PW_STREAM_STATE_ERROR || state == PW_STREAM_STATE_UNCONNECTED) {
        snprintf(clip->error, sizeof clip->error, "%s", message && *message ? message : "the PipeWire server went away");
        atomic_store(&clip->state, -1);
    } else {
        atomic_store(&clip->state, state == PW_STREAM_STATE_STREAMING ? 1 : 0);
    }
}

static void on_process(void *data) {
    struct hee_pw_clip *clip = data;
    struct pw_buffer *buffer = hee_pw_stream_dequeue_buffer(clip->stream);
    if (!buffer)
        return;
    struct spa_data *d = &buffer->buffer->datas[0];
    int16_t *out = d->data;
    if (!out)
        return;
    uint64_t room = d->maxsize / 4;
    uint64_t n = buffer->requested ? buffer->requested : clip->quantum;
    if (n > room)
        n = room;
    size_t start = atomic_load(&clip->position), position = start;
    int playing = atomic_load(&clip->playing);
    unsigned bits = atomic_load(&clip->gain_bits);
    float gain;
    memcpy(&gain, &bits, sizeof gain);
    for (uint64_t i = 0; i < n; i++) {
        if (playing && position < clip->count) {
            out[2 * i] = (int16_t)lrintf(clip->frames[2 * position] * gain);
            out[2 * i + 1] = (int16_t)lrintf(clip->frames[2 * position + 1] * gain);
            position++;
        } else {
            out[2 * i] = out[2 * i + 1] = 0;
        }
    }
    // A press meanwhile (position back to 0) wins: this cycle's progress is then dropped and
    // the next cycle starts the clip afresh.
    if (playing && atomic_compare_exchange_strong(&clip->position, &start, position) && position >= clip->count)
        atomic_compare_exchange_strong(&clip->playing, &playing, 0);
    d->chunk->offset = 0;
    d->chunk->stride = 4;
    d->chunk->size = (uint32_t)(n * 4);
    hee_pw_stream_queue_buffer(clip->stream, buffer);
    atomic_fetch_add(&clip->processed, n);
    atomic_store(&clip->last_process, monotonic_ns());
}

static const struct pw_stream_events stream_events = {
    PW_VERSION_STREAM_EVENTS,
    .state_changed = on_state_changed,
    .process = on_process,
};

hee_pw_clip *hee_pw_clip_open(const char *app_name, const char *stream_name, const char *role, const char *icon,
                              unsigned rate, unsigned quantum, const int16_t *frames, size_t count,
                              char *error, size_t size) {
    struct hee_pw_clip *clip = calloc(1, sizeof *clip);
    if (!clip || !(clip->frames = malloc(count * 4 + 4))) {
        free(clip);
        snprintf(error, size, "out of memory");
        return NULL;
    }
    memcpy(clip->frames, frames, count * 4);
    clip->count = count;
    clip->quantum = quantum;
    hee_pw_clip_set_volume(clip, 1);
    clip->loop = hee_pw_thread_loop_new("hee-audio", NULL);
    if (!clip->loop) {
        snprintf(error, size, "cannot make PipeWire's thread loop (%s)", strerror(errno));
        free(clip->frames);
        free(clip);
        return NULL;
    }
    struct pw_properties *props = hee_pw_properties_new(
        PW_KEY_MEDIA_TYPE, "Audio", PW_KEY_MEDIA_CATEGORY, "Playback", PW_KEY_MEDIA_ROLE, role,
        PW_KEY_APP_NAME, app_name, PW_KEY_APP_ICON_NAME, icon, PW_KEY_NODE_NAME, stream_name,
        PW_KEY_NODE_DESCRIPTION, stream_name, NULL);
    hee_pw_properties_setf(props, PW_KEY_NODE_LATENCY, "%u/%u", quantum, rate);
    hee_pw_properties_setf(props, PW_KEY_NODE_RATE, "1/%u", rate);
    uint8_t pod[1024];
    struct spa_pod_builder builder = SPA_POD_BUILDER_INIT(pod, sizeof pod);
    struct spa_audio_info_raw info = {.format = SPA_AUDIO_FORMAT_S16, .rate = rate, .channels = 2};
    const struct spa_pod *params[1] = {spa_format_audio_raw_build(&builder, SPA_PARAM_EnumFormat, &info)};
    hee_pw_thread_loop_lock(clip->loop);
    clip->stream = hee_pw_stream_new_simple(hee_pw_thread_loop_get_loop(clip->loop), stream_name, props,
                                            &stream_events, clip);
    int result = clip->stream ? hee_pw_stream_connect(clip->stream, PW_DIRECTION_OUTPUT, PW_ID_ANY,
                                                      PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS
                                                          | PW_STREAM_FLAG_RT_PROCESS,
                                                      params, 1)
                              : -errno;
    hee_pw_thread_loop_unlock(clip->loop);
    if (!clip->stream || result < 0 || hee_pw_thread_loop_start(clip->loop) < 0) {
        snprintf(error, size, "cannot connect a PipeWire stream (%s)", strerror(result < 0 ? -result : errno));
        hee_pw_clip_close(clip);
        return NULL;
    }
    return clip;
}

void hee_pw_clip_close(hee_pw_clip *clip) {
    if (!clip)
        return;
    hee_pw_thread_loop_stop(clip->loop);
    if (clip->stream)
        hee_pw_stream_destroy(clip->stream);
    hee_pw_thread_loop_destroy(clip->loop);
    free(clip->frames);
    free(clip);
}

void hee_pw_clip_set_active(hee_pw_clip *clip, int active) {
    hee_pw_thread_loop_lock(clip->loop);
    hee_pw_stream_set_active(clip->stream, active != 0);
    hee_pw_thread_loop_unlock(clip->loop);
}

void hee_pw_clip_play(hee_pw_clip *clip) {
    atomic_store(&clip->position, 0);
    atomic_store(&clip->playing, 1);
}

void hee_pw_clip_stop(hee_pw_clip *clip) {
    atomic_store(&clip->playing, 0);
}

void hee_pw_clip_set_volume(hee_pw_clip *clip, float gain) {
    unsigned bits;
    gain = gain < 0 ? 0 : gain > 1 ? 1 : gain;
    memcpy(&bits, &gain, sizeof bits);
    atomic_store(&clip->gain_bits, bits);
}

int hee_pw_clip_is_playing(hee_pw_clip *clip) {
    return atomic_load(&clip->playing);
}

int hee_pw_clip_state(hee_pw_clip *clip, char *error, size_t size) {
    int state = atomic_load(&clip->state);
    if (state < 0) {
        hee_pw_thread_loop_lock(clip->loop);
        snprintf(error, size, "%s", clip->error);
        hee_pw_thread_loop_unlock(clip->loop);
    }
    return state;
}

uint64_t hee_pw_clip_frames(hee_pw_clip *clip) {
    return atomic_load(&clip->processed);
}

uint64_t hee_pw_clip_since_process(hee_pw_clip *clip) {
    uint64_t last = atomic_load(&clip->last_process);
    return last ? monotonic_ns() - last : UINT64_MAX;
}
