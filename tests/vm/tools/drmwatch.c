/*
 * drmtool watch DIR: records every change of a CRTC's framebuffer, mode and ACTIVE while it
 * holds the card open (never master), for the boot hand-over case: splash, console
 * and program each show their own framebuffer, and a modeset or a blank shows as a change of
 * the mode or of ACTIVE.
 *
 * Lines (stdout, flushed):
 *   watch ready crtc ID
 *   watch T fb ID mode WxH@HZ|none active 0|1      T: CLOCK_MONOTONIC seconds (the clock of
 *                                                  flip events and of the journal's monotonic
 *                                                  stamps); one line per sample that differs
 *   watch fb ID owner COMM                         after each line that shows ID anew: debugfs'
 *                                                  "allocated by" (plymouthd, dialkiosk, the
 *                                                  console's creator)
 *   watch snap N fb ID first|last black 0|1 FILE   at exit: what the framebuffer held when it
 *                                                  first appeared and when it was replaced
 *   watch end samples N
 *
 * A framebuffer's pixels are copied into memory when it appears and, through the GEM handle
 * GetFB2 gave (which keeps the buffer alive after its owner removed the framebuffer, e.g. when
 * plymouthd quits), once more when another one replaces it; the PPM files are written only at
 * SIGTERM, so writing them never delays a sample.
 */
#define _GNU_SOURCE
#include "drmkit.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>

#define MAX_FBS 64
#define MAX_SNAPS 64

struct known_fb {
    uint32_t id, handle, width, height, pitch;
    size_t size;
};

struct snap {
    uint32_t fb;
    const char *which;
    uint32_t width, height, pitch;
    uint8_t *pixels;
};

static struct known_fb fbs[MAX_FBS];
static int fb_count;
static struct snap snaps[MAX_SNAPS];
static int snap_count;

/* The latest adoption of ID: ids are reused once a framebuffer is removed. */
static struct known_fb *known(uint32_t id) {
    for (int i = fb_count - 1; i >= 0; i--)
        if (fbs[i].id == id)
            return &fbs[i];
    return NULL;
}

/* "allocated by = COMM" of framebuffer ID in debugfs (every DRM minor's file is searched). */
static void print_owner(uint32_t id) {
    char want[48], line[256], owner[64] = "unknown";
    snprintf(want, sizeof want, "framebuffer[%" PRIu32 "]:", id);
    for (int minor = 0; minor < 4 && strcmp(owner, "unknown") == 0; minor++) {
        char path[64];
        snprintf(path, sizeof path, "/sys/kernel/debug/dri/%d/framebuffer", minor);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        bool in = false;
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "framebuffer[", 12) == 0)
                in = strncmp(line, want, strlen(want)) == 0;
            char *p = strstr(line, "allocated by = ");
            if (in && p) {
                snprintf(owner, sizeof owner, "%s", p + 15);
                owner[strcspn(owner, "\n")] = 0;
                break;
            }
        }
        fclose(f);
    }
    printf("watch fb %" PRIu32 " owner %s\n", id, owner);
}

/* Takes a GEM handle for framebuffer ID (kept until exit) and remembers its layout. */
static struct known_fb *adopt(int fd, uint32_t id) {
    if (fb_count == MAX_FBS)
        return NULL;
    drmModeFB2Ptr fb = drmModeGetFB2(fd, id);
    if (!fb) {
        fprintf(stderr, "drmtool: drmModeGetFB2 %" PRIu32 ": %s\n", id, strerror(errno));
        return NULL;
    }
    struct known_fb *k = NULL;
    if (fb->handles[0] && (fb->pixel_format == DRM_FORMAT_XRGB8888 || fb->pixel_format == DRM_FORMAT_ARGB8888)) {
        k = &fbs[fb_count++];
        *k = (struct known_fb){.id = id, .handle = fb->handles[0], .width = fb->width, .height = fb->height,
                               .pitch = fb->pitches[0], .size = (size_t)fb->pitches[0] * fb->height + fb->offsets[0]};
    }
    drmModeFreeFB2(fb);
    return k;
}

/* Copies the buffer's pixels now (MAP_DUMB + mmap of the kept handle). */
static void snapshot(int fd, struct known_fb *k, const char *which) {
    if (!k || snap_count == MAX_SNAPS)
        return;
    struct drm_mode_map_dumb map = {.handle = k->handle};
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map)) {
        fprintf(stderr, "drmtool: DRM_IOCTL_MODE_MAP_DUMB for framebuffer %" PRIu32 ": %s\n", k->id, strerror(errno));
        return;
    }
    uint8_t *p = mmap(NULL, k->size, PROT_READ, MAP_SHARED, fd, map.offset);
    if (p == MAP_FAILED) {
        fprintf(stderr, "drmtool: mmap of framebuffer %" PRIu32 ": %s\n", k->id, strerror(errno));
        return;
    }
    uint8_t *copy = malloc(k->size);
    if (copy) {
        memcpy(copy, p, k->size);
        snaps[snap_count++] = (struct snap){.fb = k->id, .which = which, .width = k->width, .height = k->height,
                                            .pitch = k->pitch, .pixels = copy};
    }
    munmap(p, k->size);
}

static bool all_black(const struct snap *s) {
    for (uint32_t y = 0; y < s->height; y++) {
        const uint32_t *row = (const uint32_t *)(s->pixels + (size_t)y * s->pitch);
        for (uint32_t x = 0; x < s->width; x++)
            if (row[x] & 0xffffff)
                return false;
    }
    return true;
}

static uint32_t active_prop;

static int read_active(int fd, uint32_t crtc) {
    drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, crtc, DRM_MODE_OBJECT_CRTC);
    int value = -1;
    for (uint32_t i = 0; props && i < props->count_props; i++)
        if (props->props[i] == active_prop)
            value = (int)props->prop_values[i];
    drmModeFreeObjectProperties(props);
    return value;
}

int cmd_watch(int fd, const char *dir) {
    if (drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1))
        die_errno("drmSetClientCap ATOMIC", 1);
    drmModeResPtr res = resources(fd);
    if (res->count_crtcs < 1)
        die("no CRTC");
    uint32_t crtc_id = res->crtcs[0];
    drmModeFreeResources(res);
    active_prop = property_id(fd, crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE");

    sigset_t term;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    sigaddset(&term, SIGINT);
    printf("watch ready crtc %" PRIu32 "\n", crtc_id);
    fflush(stdout);

    char last_line[128] = "";
    uint32_t shown = 0;
    unsigned long samples = 0;
    for (;;) {
        drmModeCrtcPtr c = drmModeGetCrtc(fd, crtc_id);
        if (!c)
            die_errno("drmModeGetCrtc", crtc_id);
        int active = read_active(fd, crtc_id);
        double now = monotonic_now();
        char mode[32] = "none";
        if (c->mode_valid)
            snprintf(mode, sizeof mode, "%ux%u@%u", c->mode.hdisplay, c->mode.vdisplay, c->mode.vrefresh);
        char line[128];
        snprintf(line, sizeof line, "fb %" PRIu32 " mode %s active %d", c->buffer_id, mode, active);
        uint32_t fb = c->buffer_id;
        drmModeFreeCrtc(c);
        samples++;
        if (strcmp(line, last_line) != 0) {
            printf("watch %.6f %s\n", now, line);
            snprintf(last_line, sizeof last_line, "%s", line);
        }
        if (fb != shown) {
            /* The one replaced: what it held at the end (its owner may remove it any moment). */
            if (shown)
                snapshot(fd, known(shown), "last");
            /* Every appearance anew: the id may name a new framebuffer of another owner. */
            if (fb) {
                print_owner(fb);
                snapshot(fd, adopt(fd, fb), "first");
            }
            shown = fb;
        }
        fflush(stdout);
        /* 2 ms between samples: a console frame shown for one 60 Hz refresh is still seen. */
        struct timespec pause = {0, 2000000}, left;
        while (clock_nanosleep(CLOCK_MONOTONIC, 0, &pause, &left) == EINTR)
            pause = left;
        int sig = 0;
        struct timespec zero = {0, 0};
        if ((sig = sigtimedwait(&term, NULL, &zero)) > 0)
            break;
    }
    for (int i = 0; i < snap_count; i++) {
        char file[512];
        snprintf(file, sizeof file, "%s/snap-%02d-fb%" PRIu32 "-%s.ppm", dir, i, snaps[i].fb, snaps[i].which);
        write_ppm(file, snaps[i].width, snaps[i].height, snaps[i].pixels, snaps[i].pitch);
        printf("watch snap %d fb %" PRIu32 " %s black %d %s\n", i, snaps[i].fb, snaps[i].which,
               all_black(&snaps[i]) ? 1 : 0, file);
        free(snaps[i].pixels);
    }
    printf("watch end samples %lu\n", samples);
    for (int i = 0; i < fb_count; i++) {
        struct drm_gem_close gc = {.handle = fbs[i].handle};
        drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &gc);
    }
    close(fd);
    return 0;
}
