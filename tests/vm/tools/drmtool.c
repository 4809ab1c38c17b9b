/*
 * drmtool: the test bed's view of a KMS device from outside the program under test.
 * Runs in the guest as root. Compiled by tests/vm/prepare.sh with the host's gcc and libdrm.
 *
 *   drmtool [--card PATH | --driver NAME] COMMAND ...
 *     crtc                 print CRTCs (fb id, mode) and connectors (status, CRTC)
 *     hold                 keep the card open without being master until SIGTERM/SIGINT, so the
 *                          kernel does not restore the console framebuffer by itself when the
 *                          program under test closes the card
 *     dump FILE [CRTC_ID]  write the CRTC's current scanout as a binary PPM (P6); root reads
 *                          another master's framebuffer through GetFB2 + MAP_DUMB
 *     master [--connector NAME] [--expect FILE]
 *                          become DRM master, show a test pattern on the connector and hold it
 *                          until SIGTERM/SIGINT; --expect writes the pattern as a PPM
 *     vblank [CRTC_INDEX]  print the CRTC's vblank counter and its timestamp (CLOCK_MONOTONIC)
 *     writeback FILE       become master and capture what the active CRTC shows through the
 *                          writeback connector (vkms enable_writeback=1) as a PPM
 *     flip SECONDS         become master and page-flip between two buffers (with flip events)
 *                          for SECONDS, then print the count and rate: the bed's 60 Hz reference
 *
 * Default card: the first /dev/dri/cardN whose driver is vkms. Lines that tests parse start with
 * the command's name. Errors name the libdrm call: "drmtool: drmModeGetCrtc 36: No such ...".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("drmtool: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* Dies with the failing call and errno, e.g. "drmModeSetCrtc 36: Permission denied". */
static void die_errno(const char *call, uint32_t id) {
    die("%s %" PRIu32 ": %s", call, id, strerror(errno));
}

static bool driver_is(int fd, const char *name) {
    drmVersionPtr v = drmGetVersion(fd);
    bool match = v && strcmp(v->name, name) == 0;
    drmFreeVersion(v);
    return match;
}

/* Opens the card; a root opener becomes master when nobody is, so drop it at once unless asked. */
static int open_card(const char *path, const char *driver, bool keep_master) {
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

static drmModeResPtr resources(int fd) {
    drmModeResPtr res = drmModeGetResources(fd);
    if (!res)
        die_errno("drmModeGetResources", 0);
    return res;
}

static const char *connector_name(drmModeConnectorPtr c, char *buf, size_t size) {
    const char *type = drmModeGetConnectorTypeName(c->connector_type);
    snprintf(buf, size, "%s-%" PRIu32, type ? type : "Unknown", c->connector_type_id);
    return buf;
}

static uint32_t crtc_of_connector(int fd, drmModeConnectorPtr c) {
    if (!c->encoder_id)
        return 0;
    drmModeEncoderPtr e = drmModeGetEncoder(fd, c->encoder_id);
    uint32_t crtc = e ? e->crtc_id : 0;
    drmModeFreeEncoder(e);
    return crtc;
}

static int cmd_crtc(int fd) {
    drmVersionPtr v = drmGetVersion(fd);
    printf("driver %s\n", v ? v->name : "unknown");
    drmFreeVersion(v);
    drmModeResPtr res = resources(fd);
    for (int i = 0; i < res->count_crtcs; i++) {
        drmModeCrtcPtr c = drmModeGetCrtc(fd, res->crtcs[i]);
        if (!c)
            die_errno("drmModeGetCrtc", res->crtcs[i]);
        if (c->mode_valid)
            printf("crtc %" PRIu32 " index %d fb %" PRIu32 " mode %ux%u@%u\n", c->crtc_id, i,
                   c->buffer_id, c->mode.hdisplay, c->mode.vdisplay, c->mode.vrefresh);
        else
            printf("crtc %" PRIu32 " index %d fb %" PRIu32 " mode none\n", c->crtc_id, i,
                   c->buffer_id);
        drmModeFreeCrtc(c);
    }
    for (int i = 0; i < res->count_connectors; i++) {
        drmModeConnectorPtr c = drmModeGetConnector(fd, res->connectors[i]);
        if (!c)
            die_errno("drmModeGetConnector", res->connectors[i]);
        char name[64];
        const char *status = c->connection == DRM_MODE_CONNECTED      ? "connected"
                             : c->connection == DRM_MODE_DISCONNECTED ? "disconnected"
                                                                      : "unknown";
        printf("connector %" PRIu32 " %s %s crtc %" PRIu32 " modes %d\n", c->connector_id,
               connector_name(c, name, sizeof name), status, crtc_of_connector(fd, c),
               c->count_modes);
        drmModeFreeConnector(c);
    }
    drmModeFreeResources(res);
    return 0;
}

static sigset_t termination_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    return set;
}

/* Blocked from the start, so a SIGTERM sent right after the ready line is not lost in the gap
 * before sigwait and ends the process through its teardown, not by default action. */
static void block_termination(void) {
    sigset_t set = termination_signals();
    sigprocmask(SIG_BLOCK, &set, NULL);
}

static void wait_for_termination(void) {
    sigset_t set = termination_signals();
    int sig;
    sigwait(&set, &sig);
}

static int cmd_hold(int fd) {
    printf("hold pid %d\n", (int)getpid());
    fflush(stdout);
    wait_for_termination();
    close(fd);
    return 0;
}

/* The test pattern `master` shows: gradients plus a checkerboard, so offsets and swapped
 * channels are both visible in a comparison. */
static uint32_t pattern(uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
    uint32_t r = w > 1 ? x * 255 / (w - 1) : 0;
    uint32_t g = h > 1 ? y * 255 / (h - 1) : 0;
    uint32_t b = ((x / 32 + y / 32) & 1) ? 200 : 40;
    return r << 16 | g << 8 | b;
}

static void write_ppm(const char *file, uint32_t w, uint32_t h, const uint8_t *pixels,
                      uint32_t pitch, bool synthetic) {
    FILE *f = fopen(file, "wb");
    if (!f)
        die("%s: %s", file, strerror(errno));
    fprintf(f, "P6\n%u %u\n255\n", w, h);
    uint8_t *row = malloc((size_t)w * 3);
    if (!row)
        die("out of memory");
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint32_t px = synthetic ? pattern(x, y, w, h)
                                    : *(const uint32_t *)(pixels + (size_t)y * pitch + x * 4);
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

static uint32_t first_active_crtc(int fd) {
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

static int cmd_dump(int fd, const char *file, uint32_t crtc_id) {
    if (!crtc_id)
        crtc_id = first_active_crtc(fd);
    drmModeCrtcPtr crtc = drmModeGetCrtc(fd, crtc_id);
    if (!crtc)
        die_errno("drmModeGetCrtc", crtc_id);
    if (!crtc->buffer_id)
        die("CRTC %" PRIu32 " has no framebuffer", crtc_id);
    drmModeFB2Ptr fb = drmModeGetFB2(fd, crtc->buffer_id);
    if (!fb)
        die_errno("drmModeGetFB2", crtc->buffer_id);
    if (fb->pixel_format != DRM_FORMAT_XRGB8888 && fb->pixel_format != DRM_FORMAT_ARGB8888)
        die("framebuffer %" PRIu32 " has format %.4s, not XRGB8888", fb->fb_id,
            (const char *)&fb->pixel_format);
    if (!fb->handles[0])
        die("framebuffer %" PRIu32 ": no GEM handle (run as root)", fb->fb_id);
    struct drm_mode_map_dumb map = {.handle = fb->handles[0]};
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
        die_errno("DRM_IOCTL_MODE_MAP_DUMB for framebuffer", fb->fb_id);
    size_t size = (size_t)fb->pitches[0] * fb->height + fb->offsets[0];
    uint8_t *p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, map.offset);
    if (p == MAP_FAILED)
        die_errno("mmap of framebuffer", fb->fb_id);
    write_ppm(file, fb->width, fb->height, p + fb->offsets[0], fb->pitches[0], false);
    printf("dump crtc %" PRIu32 " fb %" PRIu32 " %ux%u %s\n", crtc_id, fb->fb_id, fb->width,
           fb->height, file);
    munmap(p, size);
    struct drm_gem_close gc = {.handle = fb->handles[0]};
    drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &gc);
    drmModeFreeFB2(fb);
    drmModeFreeCrtc(crtc);
    return 0;
}

static drmModeConnectorPtr pick_connector(int fd, drmModeResPtr res, const char *want) {
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
    return NULL;
}

static int cmd_master(int fd, const char *want, const char *expect) {
    if (drmSetMaster(fd))
        die("drmSetMaster: %s (another program is DRM master?)", strerror(errno));
    drmModeResPtr res = resources(fd);
    drmModeConnectorPtr conn = pick_connector(fd, res, want);
    drmModeModeInfo mode = conn->modes[0];
    for (int i = 0; i < conn->count_modes; i++)
        if (conn->modes[i].type & DRM_MODE_TYPE_PREFERRED) {
            mode = conn->modes[i];
            break;
        }
    uint32_t crtc_id = crtc_of_connector(fd, conn);
    if (!crtc_id)
        crtc_id = res->crtcs[0];

    struct drm_mode_create_dumb create = {.width = mode.hdisplay, .height = mode.vdisplay, .bpp = 32};
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
        die_errno("DRM_IOCTL_MODE_CREATE_DUMB width", mode.hdisplay);
    struct drm_mode_map_dumb map = {.handle = create.handle};
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
        die_errno("DRM_IOCTL_MODE_MAP_DUMB handle", create.handle);
    uint8_t *p = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, map.offset);
    if (p == MAP_FAILED)
        die_errno("mmap of dumb buffer", create.handle);
    for (uint32_t y = 0; y < mode.vdisplay; y++)
        for (uint32_t x = 0; x < mode.hdisplay; x++)
            *(uint32_t *)(p + (size_t)y * create.pitch + x * 4) =
                pattern(x, y, mode.hdisplay, mode.vdisplay);

    uint32_t handles[4] = {create.handle}, pitches[4] = {create.pitch}, offsets[4] = {0}, fb_id;
    if (drmModeAddFB2(fd, mode.hdisplay, mode.vdisplay, DRM_FORMAT_XRGB8888, handles, pitches,
                      offsets, &fb_id, 0))
        die_errno("drmModeAddFB2 handle", create.handle);
    if (drmModeSetCrtc(fd, crtc_id, fb_id, 0, 0, &conn->connector_id, 1, &mode))
        die_errno("drmModeSetCrtc", crtc_id);
    if (expect)
        write_ppm(expect, mode.hdisplay, mode.vdisplay, NULL, 0, true);
    printf("master pid %d crtc %" PRIu32 " fb %" PRIu32 " %ux%u\n", (int)getpid(), crtc_id, fb_id,
           mode.hdisplay, mode.vdisplay);
    fflush(stdout);

    wait_for_termination();
    /* Reverse order of creation; the kernel restores the console when the last handle closes. */
    drmModeRmFB(fd, fb_id);
    munmap(p, create.size);
    struct drm_mode_destroy_dumb destroy = {.handle = create.handle};
    drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
    drmModeFreeConnector(conn);
    drmModeFreeResources(res);
    close(fd);
    return 0;
}

static int cmd_vblank(int fd, unsigned index) {
    drmVBlank vb = {0};
    vb.request.type = DRM_VBLANK_RELATIVE |
                      ((index << DRM_VBLANK_HIGH_CRTC_SHIFT) & DRM_VBLANK_HIGH_CRTC_MASK);
    vb.request.sequence = 0;
    if (drmWaitVBlank(fd, &vb))
        die_errno("drmWaitVBlank on CRTC index", index);
    printf("vblank %u %ld.%06ld\n", vb.reply.sequence, vb.reply.tval_sec, vb.reply.tval_usec);
    return 0;
}

static double monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void flip_done(int fd, unsigned seq, unsigned sec, unsigned usec, void *data) {
    (void)fd, (void)seq, (void)sec, (void)usec;
    *(bool *)data = false;
}

/* A dumb buffer with a framebuffer, filled with one grey level. */
static uint32_t grey_fb(int fd, const drmModeModeInfo *mode, uint8_t level, uint32_t *handle) {
    struct drm_mode_create_dumb create = {.width = mode->hdisplay, .height = mode->vdisplay, .bpp = 32};
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
        die_errno("DRM_IOCTL_MODE_CREATE_DUMB width", mode->hdisplay);
    struct drm_mode_map_dumb map = {.handle = create.handle};
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
        die_errno("DRM_IOCTL_MODE_MAP_DUMB handle", create.handle);
    uint8_t *p = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, map.offset);
    if (p == MAP_FAILED)
        die_errno("mmap of dumb buffer", create.handle);
    memset(p, level, create.size);
    munmap(p, create.size);
    uint32_t handles[4] = {create.handle}, pitches[4] = {create.pitch}, offsets[4] = {0}, fb;
    if (drmModeAddFB2(fd, mode->hdisplay, mode->vdisplay, DRM_FORMAT_XRGB8888, handles, pitches,
                      offsets, &fb, 0))
        die_errno("drmModeAddFB2 handle", create.handle);
    *handle = create.handle;
    return fb;
}

static int cmd_flip(int fd, double seconds) {
    if (drmSetMaster(fd))
        die("drmSetMaster: %s (another program is DRM master?)", strerror(errno));
    drmModeResPtr res = resources(fd);
    drmModeConnectorPtr conn = pick_connector(fd, res, NULL);
    drmModeModeInfo mode = conn->modes[0];
    uint32_t crtc_id = crtc_of_connector(fd, conn);
    if (!crtc_id)
        crtc_id = res->crtcs[0];
    uint32_t handle[2], fb[2] = {grey_fb(fd, &mode, 0x40, &handle[0]), grey_fb(fd, &mode, 0xc0, &handle[1])};
    if (drmModeSetCrtc(fd, crtc_id, fb[0], 0, 0, &conn->connector_id, 1, &mode))
        die_errno("drmModeSetCrtc", crtc_id);
    drmEventContext ev = {.version = 2, .page_flip_handler = flip_done};
    unsigned flips = 0;
    double start = monotonic_now();
    while (monotonic_now() - start < seconds) {
        bool pending = true;
        if (drmModePageFlip(fd, crtc_id, fb[(flips + 1) % 2], DRM_MODE_PAGE_FLIP_EVENT, &pending))
            die_errno("drmModePageFlip", crtc_id);
        while (pending) {
            struct pollfd pfd = {.fd = fd, .events = POLLIN};
            if (poll(&pfd, 1, 1000) <= 0)
                die("no flip event within 1 s");
            drmHandleEvent(fd, &ev);
        }
        flips++;
    }
    double elapsed = monotonic_now() - start;
    printf("flip %u in %.3f s = %.1f Hz\n", flips, elapsed, flips / elapsed);
    for (int i = 1; i >= 0; i--) {
        drmModeRmFB(fd, fb[i]);
        struct drm_mode_destroy_dumb destroy = {.handle = handle[i]};
        drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
    }
    drmModeFreeConnector(conn);
    drmModeFreeResources(res);
    close(fd);
    return 0;
}

/* The id of the named property of a KMS object, or dies. */
static uint32_t property_id(int fd, uint32_t object, uint32_t type, const char *name) {
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

static void atomic_add(drmModeAtomicReqPtr req, uint32_t object, uint32_t prop, uint64_t value) {
    if (drmModeAtomicAddProperty(req, object, prop, value) < 0)
        die_errno("drmModeAtomicAddProperty on object", object);
}

static int cmd_writeback(int fd, const char *file) {
    if (drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1))
        die_errno("drmSetClientCap ATOMIC", 1);
    if (drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1))
        die_errno("drmSetClientCap WRITEBACK_CONNECTORS", 1);
    if (drmSetMaster(fd))
        die("drmSetMaster: %s (writeback needs master; is another program master?)", strerror(errno));
    uint32_t crtc_id = first_active_crtc(fd);
    drmModeCrtcPtr crtc = drmModeGetCrtc(fd, crtc_id);
    if (!crtc)
        die_errno("drmModeGetCrtc", crtc_id);
    drmModeResPtr res = resources(fd);
    uint32_t wb = 0;
    for (int i = 0; i < res->count_connectors && !wb; i++) {
        drmModeConnectorPtr c = drmModeGetConnector(fd, res->connectors[i]);
        if (c && c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK)
            wb = c->connector_id;
        drmModeFreeConnector(c);
    }
    if (!wb)
        die("no writeback connector (load vkms with enable_writeback=1)");

    uint32_t w = crtc->mode.hdisplay, h = crtc->mode.vdisplay;
    struct drm_mode_create_dumb create = {.width = w, .height = h, .bpp = 32};
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
        die_errno("DRM_IOCTL_MODE_CREATE_DUMB width", w);
    uint32_t handles[4] = {create.handle}, pitches[4] = {create.pitch}, offsets[4] = {0}, fb;
    if (drmModeAddFB2(fd, w, h, DRM_FORMAT_XRGB8888, handles, pitches, offsets, &fb, 0))
        die_errno("drmModeAddFB2 handle", create.handle);

    /* Attaching the writeback connector to the CRTC is a modeset for the atomic core. */
    int32_t fence = -1;
    uint32_t crtc_prop = property_id(fd, wb, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID");
    drmModeAtomicReqPtr req = drmModeAtomicAlloc();
    atomic_add(req, wb, crtc_prop, crtc_id);
    atomic_add(req, wb, property_id(fd, wb, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_FB_ID"), fb);
    atomic_add(req, wb, property_id(fd, wb, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_OUT_FENCE_PTR"),
               (uint64_t)(uintptr_t)&fence);
    if (drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
        die_errno("drmModeAtomicCommit with writeback connector", wb);
    drmModeAtomicFree(req);
    struct pollfd pfd = {.fd = fence, .events = POLLIN};
    if (fence < 0 || poll(&pfd, 1, 10000) != 1)
        die("the writeback fence did not signal within 10 s");
    close(fence);

    struct drm_mode_map_dumb map = {.handle = create.handle};
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
        die_errno("DRM_IOCTL_MODE_MAP_DUMB handle", create.handle);
    uint8_t *p = mmap(NULL, create.size, PROT_READ, MAP_SHARED, fd, map.offset);
    if (p == MAP_FAILED)
        die_errno("mmap of dumb buffer", create.handle);
    write_ppm(file, w, h, p, create.pitch, false);
    printf("writeback crtc %" PRIu32 " connector %" PRIu32 " %ux%u %s\n", crtc_id, wb, w, h, file);
    munmap(p, create.size);

    /* Detach the writeback connector again, then free the buffer. */
    req = drmModeAtomicAlloc();
    atomic_add(req, wb, crtc_prop, 0);
    if (drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
        die_errno("drmModeAtomicCommit detaching writeback connector", wb);
    drmModeAtomicFree(req);
    drmModeRmFB(fd, fb);
    struct drm_mode_destroy_dumb destroy = {.handle = create.handle};
    drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
    drmModeFreeResources(res);
    drmModeFreeCrtc(crtc);
    close(fd);
    return 0;
}

static void usage(void) {
    fputs("usage: drmtool [--card PATH | --driver NAME] crtc | hold | dump FILE [CRTC_ID] |\n"
          "       master [--connector NAME] [--expect FILE] | vblank [CRTC_INDEX] | flip SECONDS |\n"
          "       writeback FILE\n",
          stderr);
    exit(2);
}

int main(int argc, char **argv) {
    const char *card = NULL, *driver = "vkms";
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i += 2) {
        if (i + 1 >= argc)
            usage();
        if (strcmp(argv[i], "--card") == 0)
            card = argv[i + 1];
        else if (strcmp(argv[i], "--driver") == 0)
            driver = argv[i + 1];
        else
            usage();
    }
    if (i >= argc)
        usage();
    const char *cmd = argv[i++];
    int rest = argc - i;
    char **args = argv + i;

    if (strcmp(cmd, "crtc") == 0)
        return cmd_crtc(open_card(card, driver, false));
    if (strcmp(cmd, "hold") == 0 || strcmp(cmd, "master") == 0)
        block_termination();
    if (strcmp(cmd, "hold") == 0)
        return cmd_hold(open_card(card, driver, false));
    if (strcmp(cmd, "dump") == 0) {
        if (rest < 1)
            usage();
        uint32_t crtc = rest > 1 ? (uint32_t)strtoul(args[1], NULL, 10) : 0;
        return cmd_dump(open_card(card, driver, false), args[0], crtc);
    }
    if (strcmp(cmd, "master") == 0) {
        const char *conn = NULL, *expect = NULL;
        for (int k = 0; k < rest; k += 2) {
            if (k + 1 >= rest)
                usage();
            if (strcmp(args[k], "--connector") == 0)
                conn = args[k + 1];
            else if (strcmp(args[k], "--expect") == 0)
                expect = args[k + 1];
            else
                usage();
        }
        return cmd_master(open_card(card, driver, true), conn, expect);
    }
    if (strcmp(cmd, "vblank") == 0)
        return cmd_vblank(open_card(card, driver, false),
                          rest > 0 ? (unsigned)strtoul(args[0], NULL, 10) : 0);
    if (strcmp(cmd, "writeback") == 0 && rest == 1)
        return cmd_writeback(open_card(card, driver, true), args[0]);
    if (strcmp(cmd, "flip") == 0 && rest == 1)
        return cmd_flip(open_card(card, driver, true), strtod(args[0], NULL));
    usage();
    return 2;
}
