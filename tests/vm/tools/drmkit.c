/* drmkit: see drmkit.h. */
#define _GNU_SOURCE
#include "drmkit.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>

void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("drmtool: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

void die_errno(const char *call, uint32_t id) {
    die("%s %" PRIu32 ": %s", call, id, strerror(errno));
}

static bool driver_is(int fd, const char *name) {
    drmVersionPtr v = drmGetVersion(fd);
    bool match = v && strcmp(v->name, name) == 0;
    drmFreeVersion(v);
    return match;
}

int open_card(const char *path, const char *driver, bool keep_master) {
    int fd = -1;
    if (path) {
        fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd < 0)
            die("%s: %s", path, strerror(errno));
    } else {
        for (int i = 0; i < 16 && fd < 0; i++) {
            char p[32];
            snprintf(p, sizeof p, "/dev/dri/card%d", i);
            int f = open(p, O_RDWR | O_CLOEXEC);
            if (f < 0)
                continue;
            if (driver_is(f, driver))
                fd = f;
            else
                close(f);
        }
        if (fd < 0)
            die("no /dev/dri/card* with driver %s", driver);
    }
    if (!keep_master)
        drmDropMaster(fd); /* fails harmlessly when we were not master */
    return fd;
}

void become_master(int fd) {
    if (drmSetMaster(fd))
        die("drmSetMaster: %s (another program is DRM master?)", strerror(errno));
}

drmModeResPtr resources(int fd) {
    drmModeResPtr res = drmModeGetResources(fd);
    if (!res)
        die_errno("drmModeGetResources", 0);
    return res;
}

const char *connector_name(drmModeConnectorPtr c, char *buf, size_t size) {
    const char *type = drmModeGetConnectorTypeName(c->connector_type);
    snprintf(buf, size, "%s-%" PRIu32, type ? type : "Unknown", c->connector_type_id);
    return buf;
}

uint32_t crtc_of_connector(int fd, drmModeConnectorPtr c) {
    if (!c->encoder_id)
        return 0;
    drmModeEncoderPtr e = drmModeGetEncoder(fd, c->encoder_id);
    uint32_t crtc = e ? e->crtc_id : 0;
    drmModeFreeEncoder(e);
    return crtc;
}

uint32_t first_active_crtc(int fd) {
    drmModeResPtr res = resources(fd);
    uint32_t id = 0;
    for (int i = 0; i < res->count_crtcs && !id; i++) {
        drmModeCrtcPtr c = drmModeGetCrtc(fd, res->crtcs[i]);
        if (c && c->buffer_id)
            id = c->crtc_id;
        drmModeFreeCrtc(c);
    }
    drmModeFreeResources(res);
    if (!id)
        die("no CRTC is scanning out a framebuffer");
    return id;
}

drmModeConnectorPtr pick_connector(int fd, drmModeResPtr res, const char *want) {
    char name[64], seen[512] = "";
    for (int i = 0; i < res->count_connectors; i++) {
        drmModeConnectorPtr c = drmModeGetConnector(fd, res->connectors[i]);
        if (!c)
            continue;
        connector_name(c, name, sizeof name);
        bool usable = c->connection == DRM_MODE_CONNECTED && c->count_modes > 0;
        if (usable && (!want || strcmp(want, name) == 0))
            return c;
        if (usable)
            snprintf(seen + strlen(seen), sizeof seen - strlen(seen), " %s", name);
        drmModeFreeConnector(c);
    }
    die("connector %s not found; connected:%s", want ? want : "(any)", seen);
}

drmModeModeInfo preferred_mode(drmModeConnectorPtr c) {
    for (int i = 0; i < c->count_modes; i++)
        if (c->modes[i].type & DRM_MODE_TYPE_PREFERRED)
            return c->modes[i];
    return c->modes[0];
}

uint32_t property_id(int fd, uint32_t object, uint32_t type, const char *name) {
    drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, object, type);
    if (!props)
        die_errno("drmModeObjectGetProperties", object);
    uint32_t id = 0;
    for (uint32_t i = 0; i < props->count_props && !id; i++) {
        drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);
        if (p && strcmp(p->name, name) == 0)
            id = p->prop_id;
        drmModeFreeProperty(p);
    }
    drmModeFreeObjectProperties(props);
    if (!id)
        die("object %" PRIu32 " has no property %s", object, name);
    return id;
}

struct dumb dumb_create(int fd, uint32_t width, uint32_t height) {
    struct dumb d = {.fd = fd, .width = width, .height = height};
    struct drm_mode_create_dumb create = {.width = width, .height = height, .bpp = 32};
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
        die_errno("DRM_IOCTL_MODE_CREATE_DUMB width", width);
    d.handle = create.handle;
    d.pitch = create.pitch;
    d.size = create.size;
    struct drm_mode_map_dumb map = {.handle = d.handle};
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
        die_errno("DRM_IOCTL_MODE_MAP_DUMB handle", d.handle);
    d.map = mmap(NULL, d.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, map.offset);
    if (d.map == MAP_FAILED)
        die_errno("mmap of dumb buffer", d.handle);
    uint32_t handles[4] = {d.handle}, pitches[4] = {d.pitch}, offsets[4] = {0};
    if (drmModeAddFB2(fd, width, height, DRM_FORMAT_XRGB8888, handles, pitches, offsets, &d.fb, 0))
        die_errno("drmModeAddFB2 handle", d.handle);
    return d;
}

void dumb_destroy(struct dumb *d) {
    if (d->fb)
        drmModeRmFB(d->fd, d->fb);
    d->fb = 0;
    if (d->map && d->map != MAP_FAILED)
        munmap(d->map, d->size);
    d->map = NULL;
    if (d->handle) {
        struct drm_mode_destroy_dumb destroy = {.handle = d->handle};
        drmIoctl(d->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
    }
    d->handle = 0;
}

uint32_t pattern(uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
    uint32_t r = w > 1 ? x * 255 / (w - 1) : 0;
    uint32_t g = h > 1 ? y * 255 / (h - 1) : 0;
    uint32_t b = ((x / 32 + y / 32) & 1) ? 200 : 40;
    return r << 16 | g << 8 | b;
}

void write_ppm(const char *file, uint32_t w, uint32_t h, const uint8_t *pixels, uint32_t pitch) {
    FILE *f = fopen(file, "wb");
    if (!f)
        die("%s: %s", file, strerror(errno));
    fprintf(f, "P6\n%u %u\n255\n", w, h);
    uint8_t *row = malloc((size_t)w * 3);
    if (!row)
        die("out of memory");
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint32_t px = pixels ? *(const uint32_t *)(pixels + (size_t)y * pitch + (size_t)x * 4)
                                 : pattern(x, y, w, h);
            row[x * 3] = px >> 16;
            row[x * 3 + 1] = px >> 8;
            row[x * 3 + 2] = px;
        }
        fwrite(row, 3, w, f);
    }
    free(row);
    if (fclose(f) != 0)
        die("%s: %s", file, strerror(errno));
}

static sigset_t termination_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    return set;
}

void block_termination(void) {
    sigset_t set = termination_signals();
    sigprocmask(SIG_BLOCK, &set, NULL);
}

void wait_for_termination(void) {
    sigset_t set = termination_signals();
    int sig;
    sigwait(&set, &sig);
}

double monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}
