/*
 * drmtool: the test bed's view of a KMS device from outside the program under test.
 * Runs in the guest as root. Compiled by tests/vm/prepare.sh with the host's gcc and libdrm,
 * together with drmkit.c (the shared pieces).
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
 *     power                print each CRTC's ACTIVE property and each connector's DPMS property
 *                          ("power crtc ID active 0|1", "power connector ID NAME dpms N", N 0 On,
 *                          3 Off); ACTIVE needs DRM_CLIENT_CAP_ATOMIC, which any client may set
 *     watch DIR            hold the card open (not master) and record every change of the first
 *                          CRTC's framebuffer, mode and ACTIVE until SIGTERM, with each
 *                          framebuffer's owner and pixels (drmwatch.c)
 *     flip SECONDS         become master and page-flip between two buffers (with flip events)
 *                          for SECONDS, then print the count and rate: the bed's 60 Hz reference
 *
 * Default card: the first /dev/dri/cardN whose driver is vkms. Lines that tests parse start with
 * the command's name. Errors name the libdrm call: "drmtool: drmModeGetCrtc 36: No such ...".
 */
#define _GNU_SOURCE
#include "drmkit.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>

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

/* The value of property `name` of an object, or -1 when the object has no such property. */
static long long property_value(int fd, uint32_t object, uint32_t type, const char *name) {
    drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, object, type);
    if (!props)
        die_errno("drmModeObjectGetProperties", object);
    long long value = -1;
    for (uint32_t i = 0; i < props->count_props && value < 0; i++) {
        drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);
        if (p && strcmp(p->name, name) == 0)
            value = (long long)props->prop_values[i];
        drmModeFreeProperty(p);
    }
    drmModeFreeObjectProperties(props);
    return value;
}

static int cmd_power(int fd) {
    if (drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1) != 0)
        fprintf(stderr, "drmtool: drmSetClientCap ATOMIC: %s (no ACTIVE to read)\n", strerror(errno));
    drmModeResPtr res = resources(fd);
    for (int i = 0; i < res->count_crtcs; i++)
        printf("power crtc %" PRIu32 " active %lld\n", res->crtcs[i],
               property_value(fd, res->crtcs[i], DRM_MODE_OBJECT_CRTC, "ACTIVE"));
    for (int i = 0; i < res->count_connectors; i++) {
        drmModeConnectorPtr c = drmModeGetConnector(fd, res->connectors[i]);
        if (!c)
            die_errno("drmModeGetConnector", res->connectors[i]);
        char name[64];
        printf("power connector %" PRIu32 " %s dpms %lld\n", c->connector_id, connector_name(c, name, sizeof name),
               property_value(fd, c->connector_id, DRM_MODE_OBJECT_CONNECTOR, "DPMS"));
        drmModeFreeConnector(c);
    }
    drmModeFreeResources(res);
    return 0;
}

static int cmd_hold(int fd) {
    printf("hold pid %d\n", (int)getpid());
    fflush(stdout);
    wait_for_termination();
    close(fd);
    return 0;
}

/* Root gets a GEM handle for any framebuffer from GetFB2, also one another master owns. */
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
    write_ppm(file, fb->width, fb->height, p + fb->offsets[0], fb->pitches[0]);
    printf("dump crtc %" PRIu32 " fb %" PRIu32 " %ux%u %s\n", crtc_id, fb->fb_id, fb->width,
           fb->height, file);
    munmap(p, size);
    struct drm_gem_close gc = {.handle = fb->handles[0]};
    drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &gc);
    drmModeFreeFB2(fb);
    drmModeFreeCrtc(crtc);
    return 0;
}

static int cmd_master(int fd, const char *want, const char *expect) {
    become_master(fd);
    drmModeResPtr res = resources(fd);
    drmModeConnectorPtr conn = pick_connector(fd, res, want);
    drmModeModeInfo mode = preferred_mode(conn);
    uint32_t crtc_id = crtc_of_connector(fd, conn);
    if (!crtc_id)
        crtc_id = res->crtcs[0];
    struct dumb buf = dumb_create(fd, mode.hdisplay, mode.vdisplay);
    for (uint32_t y = 0; y < buf.height; y++)
        for (uint32_t x = 0; x < buf.width; x++)
            *dumb_pixel(&buf, x, y) = pattern(x, y, buf.width, buf.height);
    if (drmModeSetCrtc(fd, crtc_id, buf.fb, 0, 0, &conn->connector_id, 1, &mode))
        die_errno("drmModeSetCrtc", crtc_id);
    if (expect)
        write_ppm(expect, buf.width, buf.height, NULL, 0);
    printf("master pid %d crtc %" PRIu32 " fb %" PRIu32 " %ux%u\n", (int)getpid(), crtc_id, buf.fb,
           buf.width, buf.height);
    fflush(stdout);

    wait_for_termination();
    /* No restore on purpose: the kernel restores the console when the last handle closes, and
     * the drm-master case shows what happens when something else holds the card. */
    dumb_destroy(&buf);
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

static void flip_done(int fd, unsigned seq, unsigned sec, unsigned usec, void *data) {
    (void)fd, (void)seq, (void)sec, (void)usec;
    *(bool *)data = false;
}

static int cmd_flip(int fd, double seconds) {
    become_master(fd);
    drmModeResPtr res = resources(fd);
    drmModeConnectorPtr conn = pick_connector(fd, res, NULL);
    drmModeModeInfo mode = preferred_mode(conn);
    uint32_t crtc_id = crtc_of_connector(fd, conn);
    if (!crtc_id)
        crtc_id = res->crtcs[0];
    struct dumb buf[2] = {dumb_create(fd, mode.hdisplay, mode.vdisplay),
                          dumb_create(fd, mode.hdisplay, mode.vdisplay)};
    memset(buf[0].map, 0x40, buf[0].size);
    memset(buf[1].map, 0xc0, buf[1].size);
    if (drmModeSetCrtc(fd, crtc_id, buf[0].fb, 0, 0, &conn->connector_id, 1, &mode))
        die_errno("drmModeSetCrtc", crtc_id);
    drmEventContext ev = {.version = 2, .page_flip_handler = flip_done};
    unsigned flips = 0;
    double start = monotonic_now();
    while (monotonic_now() - start < seconds) {
        bool pending = true;
        if (drmModePageFlip(fd, crtc_id, buf[(flips + 1) % 2].fb, DRM_MODE_PAGE_FLIP_EVENT,
                            &pending))
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
    dumb_destroy(&buf[1]);
    dumb_destroy(&buf[0]);
    drmModeFreeConnector(conn);
    drmModeFreeResources(res);
    close(fd);
    return 0;
}

static void atomic_add(drmModeAtomicReqPtr req, uint32_t object, uint32_t prop, uint64_t value) {
    if (drmModeAtomicAddProperty(req, object, prop, value) < 0)
        die_errno("drmModeAtomicAddProperty on object", object);
}

static uint32_t writeback_connector(int fd) {
    drmModeResPtr res = resources(fd);
    uint32_t wb = 0;
    for (int i = 0; i < res->count_connectors && !wb; i++) {
        drmModeConnectorPtr c = drmModeGetConnector(fd, res->connectors[i]);
        if (c && c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK)
            wb = c->connector_id;
        drmModeFreeConnector(c);
    }
    drmModeFreeResources(res);
    if (!wb)
        die("no writeback connector (load vkms with enable_writeback=1)");
    return wb;
}

static int cmd_writeback(int fd, const char *file) {
    if (drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1))
        die_errno("drmSetClientCap ATOMIC", 1);
    if (drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1))
        die_errno("drmSetClientCap WRITEBACK_CONNECTORS", 1);
    become_master(fd);
    uint32_t crtc_id = first_active_crtc(fd);
    drmModeCrtcPtr crtc = drmModeGetCrtc(fd, crtc_id);
    if (!crtc)
        die_errno("drmModeGetCrtc", crtc_id);
    uint32_t wb = writeback_connector(fd);
    struct dumb buf = dumb_create(fd, crtc->mode.hdisplay, crtc->mode.vdisplay);

    /* Attaching the writeback connector to the CRTC is a modeset for the atomic core. */
    int32_t fence = -1;
    uint32_t crtc_prop = property_id(fd, wb, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID");
    drmModeAtomicReqPtr req = drmModeAtomicAlloc();
    atomic_add(req, wb, crtc_prop, crtc_id);
    atomic_add(req, wb, property_id(fd, wb, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_FB_ID"), buf.fb);
    atomic_add(req, wb, property_id(fd, wb, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_OUT_FENCE_PTR"),
               (uint64_t)(uintptr_t)&fence);
    if (drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
        die_errno("drmModeAtomicCommit with writeback connector", wb);
    drmModeAtomicFree(req);
    struct pollfd pfd = {.fd = fence, .events = POLLIN};
    if (fence < 0 || poll(&pfd, 1, 10000) != 1)
        die("the writeback fence did not signal within 10 s");
    close(fence);
    write_ppm(file, buf.width, buf.height, buf.map, buf.pitch);
    printf("writeback crtc %" PRIu32 " connector %" PRIu32 " %ux%u %s\n", crtc_id, wb, buf.width,
           buf.height, file);

    /* Detach the writeback connector again before its buffer goes. */
    req = drmModeAtomicAlloc();
    atomic_add(req, wb, crtc_prop, 0);
    if (drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
        die_errno("drmModeAtomicCommit detaching writeback connector", wb);
    drmModeAtomicFree(req);
    dumb_destroy(&buf);
    drmModeFreeCrtc(crtc);
    close(fd);
    return 0;
}

static void usage(void) {
    fputs("usage: drmtool [--card PATH | --driver NAME] crtc | hold | dump FILE [CRTC_ID] |\n"
          "       master [--connector NAME] [--expect FILE] | vblank [CRTC_INDEX] | flip SECONDS |\n"
          "       power | watch DIR |\n"
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
    if (strcmp(cmd, "power") == 0)
        return cmd_power(open_card(card, driver, false));
    if (strcmp(cmd, "hold") == 0 || strcmp(cmd, "master") == 0 || strcmp(cmd, "watch") == 0)
        block_termination();
    if (strcmp(cmd, "watch") == 0 && rest == 1)
        return cmd_watch(open_card(card, driver, false), args[0]);
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
