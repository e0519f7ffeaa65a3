// See include/xinput_watch.h. Only this file speaks Xlib; it is compiled against libX11's and
// libXi's headers (Debian's libx11-dev and libxi-dev) and links neither.
#include "xinput_watch.h"
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>

// Under AddressSanitizer (scripts/sanitize), what Xlib allocates inside an escape (an opening's
// calls, on its thread; every call where every call is escaped) is left out of the leak check:
// a display whose X server was lost then is left half made (see `escapable`), with whatever
// Xlib was making. A watch flickd fails to close is still reported, by its own allocation
// (here, not Xlib's: the display refers to `lost` only).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/lsan_interface.h>
#define LEAKS_UNCHECKED() __lsan_disable()
#define LEAKS_CHECKED_AGAIN() __lsan_enable()
#endif
#endif
#ifndef LEAKS_UNCHECKED
#define LEAKS_UNCHECKED() ((void)0)
#define LEAKS_CHECKED_AGAIN() ((void)0)
#endif

struct flickd_xwatch {
    Display *display;
    // The connection's socket (XConnectionNumber), kept: a display left by an escape
    // (`ABANDONED`) is not asked again.
    int fd;
    // The properties watched (`flickd_xwatch_open`'s lines), up to four.
    Atom properties[4];
    int property_count;
    int opcode;
    // `LOST` (set by the I/O error exit handler) or `ABANDONED` once the X server went away, 0
    // before. Its own allocation, so that the display refers to it and not to the watch (see
    // LEAKS_UNCHECKED).
    int *lost;
};

// The X server went away, and Xlib marked the display so (libX11 1.7 and later, through the
// exit handler `connection_lost`): it is closed the ordinary way.
#define LOST 1
// The X server went away while an Xlib call ran inside an escape (`escapable`), which left it:
// the display is never given to Xlib again, not even to close it (Xlib's state of it is that
// of a call cut short); its socket is closed and the rest left.
#define ABANDONED 2

// The functions used, from libX11.so.6 and libXi.so.6.
static struct {
    Status (*XInitThreads)(void);
    Display *(*XOpenDisplay)(const char *);
    int (*XCloseDisplay)(Display *);
    int (*XConnectionNumber)(Display *);
    Atom (*XInternAtom)(Display *, const char *, Bool);
    Bool (*XQueryExtension)(Display *, const char *, int *, int *, int *);
    int (*XPending)(Display *);
    int (*XNextEvent)(Display *, XEvent *);
    int (*XSync)(Display *, Bool);
    Bool (*XGetEventData)(Display *, XGenericEventCookie *);
    void (*XFreeEventData)(Display *, XGenericEventCookie *);
    XErrorHandler (*XSetErrorHandler)(XErrorHandler);
    XIOErrorHandler (*XSetIOErrorHandler)(XIOErrorHandler);
    void (*XSetIOErrorExitHandler)(Display *, XIOErrorExitHandler, void *);
    int (*XFree)(void *);
    Status (*XIQueryVersion)(Display *, int *, int *);
    int (*XISelectEvents)(Display *, Window, XIEventMask *, int);
    XIDeviceInfo *(*XIQueryDevice)(Display *, int, int *);
    void (*XIFreeDeviceInfo)(XIDeviceInfo *);
    Status (*XIGetProperty)(Display *, int, Atom, long, long, Bool, Atom, Atom *, int *, unsigned long *,
                            unsigned long *, unsigned char **);
    // Why loading failed; empty when it did not.
    char failure[200];
} x;

// Whether every Xlib call runs inside an escape (`escapable`): on a libX11 without
// XSetIOErrorExitHandler (before 1.7), whose I/O error handler must not return (Xlib calls
// exit(1) when it does), or when a test asks for it (`flickd_xlib_escape_every_call`).
static int escape_every_call;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

// The stack of an opening's or a reading's thread (see `run_opening`).
#define FLICKD_XTHREAD_STACK (256 * 1024)

// Openings (`flickd_xwatch_open`) run on a thread of their own, so that the caller waits no
// longer than its deadline: Xlib's connection has no timeout of its own.
static pthread_mutex_t openings = PTHREAD_MUTEX_INITIALIZER;
// Signalled when an opening's thread is done; waited on with the monotonic clock.
static pthread_cond_t opening_done;
// An abandoned opening's thread still waits for its X server; the next opening waits for it.
static int straying;

// libXext keeps, per extension, a record of the displays it was used on (XInput's in libXi, the
// Generic Event extension's in libXext), and the close of the last display in one frees the
// record and forgets it, outside any lock (libXi 1.8's XInputClose, libXext 1.3's
// _xgeDpyClose). A thread making its first XInput call on another display at that moment uses
// the record freed (the SIGSEGV in XextFindDisplay of docs/RELIABILITY.md). So the first
// display that made an XInput call and came back is never closed: both records keep it, and
// are never freed. Its socket is closed, the rest (about 75 kB, once) left.
static pthread_mutex_t anchoring = PTHREAD_MUTEX_INITIALIZER;
static Display *anchor;

static void anchor_if_first(Display *display) {
    pthread_mutex_lock(&anchoring);
    if (!anchor) anchor = display;
    pthread_mutex_unlock(&anchoring);
}

static int is_anchor(Display *display) {
    pthread_mutex_lock(&anchoring);
    int anchored = display == anchor;
    pthread_mutex_unlock(&anchoring);
    return anchored;
}

static void say(char *why, size_t size, const char *format, ...) {
    if (size == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(why, size, format, arguments);
    va_end(arguments);
}

// Xlib's default handlers print and call exit(1). A protocol error here (a server refusing a
// request) is answered by the request's status; a lost connection by `lost`.
static int ignore_error(Display *display, XErrorEvent *event) {
    (void)display;
    (void)event;
    return 0;
}

// Where a lost connection leaves Xlib for (`escapable`), on this thread; NULL outside an
// escape. And the display it was lost on, for the escape's landing.
static __thread jmp_buf *escape_point;
static __thread Display *escaped_from;

// A lost connection. Xlib then calls the display's exit handler (`connection_lost`, set once
// XOpenDisplay returns, on libX11 1.7 and later), and without one, exit(1): inside an escape
// (while XOpenDisplay runs, and around every call on a libX11 without that handler), this
// leaves Xlib for the escape's landing instead, which is what Xlib's I/O error handlers are
// documented to do instead of returning. The display is then never used again (`ABANDONED`).
static int ignore_io_error(Display *display) {
    jmp_buf *escape = escape_point;
    if (escape) {
        escape_point = NULL;
        escaped_from = display;
        longjmp(*escape, 1);
    }
    return 0;
}

// Runs `body(argument)` inside an escape when `always` or `escape_every_call`, else plainly.
// Returns the display the X server was lost on (its socket still open; nothing else of it may
// be used, and the rest of it, about 75 kB, is left: Xlib has no call that frees a display
// whose call was cut short), or NULL when `body` returned.
static Display *escapable(int always, void (*body)(void *), void *argument) {
    if (!always && !escape_every_call) {
        body(argument);
        return NULL;
    }
    jmp_buf escape;
    jmp_buf *outer = escape_point;
    if (setjmp(escape)) {
        LEAKS_CHECKED_AGAIN();
        escape_point = outer;
        return escaped_from;
    }
    escape_point = &escape;
    LEAKS_UNCHECKED();
    body(argument);
    LEAKS_CHECKED_AGAIN();
    escape_point = outer;
    return NULL;
}

static void connection_lost(Display *display, void *context) {
    (void)display;
    *(int *)context = LOST;
}

// Frees a watch whose display is closed or was never opened.
static void free_watch(struct flickd_xwatch *watch) {
    free(watch->lost);
    free(watch);
}

static void close_display(void *display) {
    x.XCloseDisplay(display);
}

// Closes the watch's display and frees it; with `shut_reading`, the socket's reading side is
// shut first (see `flickd_xwatch_close`). A display left by an escape, or kept as `anchor`,
// only has its socket closed. Where every call is escaped, XCloseDisplay's last request meets
// the shut reading side as a lost connection, and the display is left too: so closing a watch
// whose server still answers costs its 75 kB there.
static void close_watch(struct flickd_xwatch *watch, int shut_reading) {
    if (*watch->lost != ABANDONED && !is_anchor(watch->display)) {
        if (shut_reading) shutdown(watch->fd, SHUT_RD);
        if (escapable(0, close_display, watch->display)) close(watch->fd);
    } else {
        close(watch->fd);
    }
    free_watch(watch);
}

#define LOOK_UP(library, name)                                                               \
    if (!(x.name = dlsym(library, #name))) {                                                  \
        say(x.failure, sizeof x.failure, "%s.so.6 has no %s", #library, #name);               \
        return;                                                                               \
    }

static void load(void) {
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&opening_done, &attributes);
    pthread_condattr_destroy(&attributes);
    // libXi brings libX11 in; RTLD_LOCAL keeps both out of the global namespace.
    void *libX11 = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!libX11) {
        say(x.failure, sizeof x.failure, "cannot load libX11.so.6 (Debian's libx11-6)");
        return;
    }
    void *libXi = dlopen("libXi.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!libXi) {
        say(x.failure, sizeof x.failure, "cannot load libXi.so.6 (Debian's libxi6)");
        return;
    }
    LOOK_UP(libX11, XInitThreads)
    LOOK_UP(libX11, XOpenDisplay)
    LOOK_UP(libX11, XCloseDisplay)
    LOOK_UP(libX11, XConnectionNumber)
    LOOK_UP(libX11, XInternAtom)
    LOOK_UP(libX11, XQueryExtension)
    LOOK_UP(libX11, XPending)
    LOOK_UP(libX11, XNextEvent)
    LOOK_UP(libX11, XSync)
    LOOK_UP(libX11, XGetEventData)
    LOOK_UP(libX11, XFreeEventData)
    LOOK_UP(libX11, XSetErrorHandler)
    LOOK_UP(libX11, XSetIOErrorHandler)
    // Without it (libX11 before 1.7) every call is escaped.
    x.XSetIOErrorExitHandler = dlsym(libX11, "XSetIOErrorExitHandler");
    if (!x.XSetIOErrorExitHandler) escape_every_call = 1;
    LOOK_UP(libX11, XFree)
    LOOK_UP(libXi, XIQueryVersion)
    LOOK_UP(libXi, XISelectEvents)
    LOOK_UP(libXi, XIQueryDevice)
    LOOK_UP(libXi, XIFreeDeviceInfo)
    LOOK_UP(libXi, XIGetProperty)
    // A watch is opened on one thread and read on another.
    x.XInitThreads();
    x.XSetErrorHandler(ignore_error);
    x.XSetIOErrorHandler(ignore_io_error);
}

// Up to `most` atoms of `lines` (names, one per line), in order; with `only_if_existing`, None
// for a name the server has never heard of (so no device has that property). How many lines.
static int intern_lines(Display *display, const char *lines, Atom *atoms, int most, Bool only_if_existing) {
    int count = 0;
    for (const char *next = lines; *next && count < most;) {
        const char *end = strchr(next, '\n');
        size_t length = end ? (size_t)(end - next) : strlen(next);
        char line[128];
        snprintf(line, sizeof line, "%.*s", (int)length, next);
        if (line[0]) atoms[count++] = x.XInternAtom(display, line, only_if_existing);
        next += length + (end ? 1 : 0);
    }
    return count;
}

// A connection being made: the display's name (NULL: $DISPLAY), and what XOpenDisplay gave.
struct connection {
    const char *display;
    Display *connected;
};

static void open_display(void *argument) {
    struct connection *connection = argument;
    connection->connected = x.XOpenDisplay(connection->display);
}

// What `prepare` does with a watch newly connected.
struct preparation {
    struct flickd_xwatch *watch;
    const char *properties;
    int select;
    // 0: ready; -1: the X server has no XInput 2.
    int outcome;
    // An XInput call was made: the display is in libXi's and libXext's records (`anchor`).
    int recorded;
};

// Asks for XInput 2 and, with `select`, selects the property events.
static void prepare(void *argument) {
    struct preparation *preparation = argument;
    struct flickd_xwatch *watch = preparation->watch;
    int event, error;
    int major = 2, minor = 0;
    if (!x.XQueryExtension(watch->display, "XInputExtension", &watch->opcode, &event, &error)) {
        preparation->outcome = -1;
        return;
    }
    preparation->recorded = 1;
    if (x.XIQueryVersion(watch->display, &major, &minor) != Success) {
        preparation->outcome = -1;
        return;
    }
    if (!preparation->select) return;
    const int most = (int)(sizeof watch->properties / sizeof watch->properties[0]);
    watch->property_count = intern_lines(watch->display, preparation->properties, watch->properties, most, False);
    unsigned char bits[XIMaskLen(XI_LASTEVENT)] = {0};
    XISetMask(bits, XI_PropertyEvent);
    XIEventMask mask = {.deviceid = XIAllDevices, .mask_len = sizeof bits, .mask = bits};
    x.XISelectEvents(watch->display, DefaultRootWindow(watch->display), &mask, 1);
    x.XSync(watch->display, False);
    if (*watch->lost) return;
    // What came before the selection was in place is not news: whoever opens the watch reads
    // the properties after it.
    while (x.XPending(watch->display) > 0) {
        XEvent discarded;
        x.XNextEvent(watch->display, &discarded);
    }
}

// The X server's name in a message: the display given, else $DISPLAY, else "(no DISPLAY)".
static const char *server_name(const char *display) {
    const char *name = display ? display : getenv("DISPLAY");
    return name ? name : "(no DISPLAY)";
}

// Connects and, with `select`, selects the events; blocks while the X server answers.
static flickd_xwatch *open_now(const char *display, const char *properties, int select, char *why, size_t why_size) {
    const char *name = server_name(display);
    struct flickd_xwatch *watch = calloc(1, sizeof *watch);
    if (watch) watch->lost = calloc(1, sizeof *watch->lost);
    if (!watch || !watch->lost) {
        free(watch);
        say(why, why_size, "out of memory");
        return NULL;
    }
    // XOpenDisplay makes requests of its own after the connection's setup, before any exit
    // handler can be set: it always runs inside an escape.
    struct connection connection = {.display = display};
    Display *lost = escapable(1, open_display, &connection);
    if (lost) {
        close(x.XConnectionNumber(lost));
        say(why, why_size, "the X server %s closed the connection", name);
        free_watch(watch);
        return NULL;
    }
    watch->display = connection.connected;
    if (!watch->display) {
        say(why, why_size, "cannot connect to the X server %s", name);
        free_watch(watch);
        return NULL;
    }
    watch->fd = x.XConnectionNumber(watch->display);
    if (!escape_every_call) x.XSetIOErrorExitHandler(watch->display, connection_lost, watch->lost);
    // Inside an escape too: libXi does not survive every lost connection it returns from
    // (XIQueryVersion reads the version its first request did not get: a NULL pointer).
    struct preparation preparation = {.watch = watch, .properties = properties, .select = select};
    if (escapable(1, prepare, &preparation)) *watch->lost = ABANDONED;
    else if (preparation.recorded) anchor_if_first(watch->display);
    if (*watch->lost) {
        say(why, why_size, "the X server %s closed the connection", name);
        close_watch(watch, 1);
        return NULL;
    }
    if (preparation.outcome < 0) {
        say(why, why_size, "the X server %s has no XInput 2", name);
        close_watch(watch, 1);
        return NULL;
    }
    return watch;
}

// The values of one property of `device`, as `flickd_xdevice` keeps them: integers (INTEGER,
// signed; CARDINAL, unsigned) of any format, and 32-bit floats (the FLOAT type the drivers
// use). XI 2's replies keep each item's own size (unlike XGetWindowProperty's longs).
static int read_property(Display *display, int device, Atom property, Atom float_type, double *values) {
    Atom type = None;
    int format = 0;
    unsigned long items = 0, after = 0;
    unsigned char *data = NULL;
    // Length in 4-byte units: enough for the values kept.
    if (x.XIGetProperty(display, device, property, 0, FLICKD_XVALUES_MAX, False, AnyPropertyType, &type, &format,
                        &items, &after, &data) != Success)
        return 0;
    int count = 0;
    if (data && (type == XA_INTEGER || type == XA_CARDINAL || (type == float_type && float_type != None && format == 32))) {
        for (unsigned long i = 0; i < items && count < FLICKD_XVALUES_MAX; i++) {
            double value;
            // (Each branch converts to double itself: a conditional of a signed and an unsigned
            // integer would be unsigned.)
            int is_signed = type == XA_INTEGER;
            if (type == float_type) value = ((const float *)data)[i];
            else if (format == 8) value = is_signed ? (double)((const int8_t *)data)[i] : (double)((const uint8_t *)data)[i];
            else if (format == 16) value = is_signed ? (double)((const int16_t *)data)[i] : (double)((const uint16_t *)data)[i];
            else if (format == 32) value = is_signed ? (double)((const int32_t *)data)[i] : (double)((const uint32_t *)data)[i];
            else break;
            values[count++] = value;
        }
    }
    if (data) x.XFree(data);
    return count;
}

// Reads `properties` of every slave pointer and floating slave into `devices`; -1 when the
// server lists no device (a lost connection).
static int read_devices(Display *display, const char *properties, flickd_xdevice *devices, int capacity) {
    Atom atoms[FLICKD_XPROPERTIES_MAX];
    int property_count = intern_lines(display, properties, atoms, FLICKD_XPROPERTIES_MAX, True);
    Atom float_type = x.XInternAtom(display, "FLOAT", True);
    int listed = 0;
    XIDeviceInfo *info = x.XIQueryDevice(display, XIAllDevices, &listed);
    if (!info) return -1;
    int count = 0;
    for (int i = 0; i < listed && count < capacity; i++) {
        if (info[i].use != XISlavePointer && info[i].use != XIFloatingSlave) continue;
        flickd_xdevice *device = &devices[count++];
        memset(device, 0, sizeof *device);
        snprintf(device->name, sizeof device->name, "%s", info[i].name ? info[i].name : "");
        for (int p = 0; p < property_count; p++) {
            // A device removed since the listing answers BadDevice: no values, as for a
            // property it lacks.
            if (atoms[p] != None) device->counts[p] = read_property(display, info[i].deviceid, atoms[p], float_type, device->values[p]);
        }
    }
    x.XIFreeDeviceInfo(info);
    return count;
}

// A reading of the devices (`read_devices`) on a display newly connected.
struct reading {
    Display *display;
    const char *properties;
    flickd_xdevice *devices;
    int capacity;
    int count;
};

static void read_all(void *argument) {
    struct reading *reading = argument;
    reading->count = read_devices(reading->display, reading->properties, reading->devices, reading->capacity);
}

// One opening, shared by the caller and the thread that connects, under `openings`: a watch's
// (`flickd_xwatch_open`) or a reading's (`flickd_xread`).
struct opening {
    char display[256];
    int has_display;
    char properties[512];
    flickd_xwatch *watch;
    // A reading: where the thread writes the devices (its own buffer, copied out by the
    // caller), how many fit, and how many it wrote (-1: none could be read).
    int reading;
    flickd_xdevice *devices;
    int capacity;
    int count;
    char why[200];
    int finished;
    // The caller's deadline passed: the thread closes what it opened and frees this.
    int abandoned;
};

static void *open_on_thread(void *argument) {
    struct opening *opening = argument;
    char why[sizeof opening->why] = "";
    const char *display = opening->has_display ? opening->display : NULL;
    flickd_xwatch *watch = open_now(display, opening->properties, !opening->reading, why, sizeof why);
    int count = -1;
    if (opening->reading && watch) {
        struct reading reading = {.display = watch->display, .properties = opening->properties,
                                  .devices = opening->devices, .capacity = opening->capacity, .count = -1};
        if (escapable(1, read_all, &reading)) *watch->lost = ABANDONED;
        count = reading.count;
        int lost = count < 0 || *watch->lost;
        if (lost) {
            count = -1;
            say(why, sizeof why, "the X server %s closed the connection", server_name(display));
        }
        // A server that has just answered is closed the ordinary way, not through a lost
        // connection's handlers: should it stop answering now, this thread (left behind at its
        // deadline) is the only one that waits.
        close_watch(watch, lost);
        watch = NULL;
    }
    pthread_mutex_lock(&openings);
    int abandoned = opening->abandoned;
    if (abandoned) {
        straying = 0;
    } else {
        opening->watch = watch;
        opening->count = count;
        memcpy(opening->why, why, sizeof why);
    }
    opening->finished = 1;
    pthread_cond_broadcast(&opening_done);
    pthread_mutex_unlock(&openings);
    if (abandoned) {
        // Nobody wants it now; a server that stops answering again holds only this thread.
        flickd_xwatch_close(watch);
        free(opening->devices);
        free(opening);
    }
    return NULL;
}

// Waits on `opening_done` until `done` says so or `deadline` passes; true when done.
static int wait_until(const struct timespec *deadline, int (*done)(const struct opening *), const struct opening *opening) {
    while (!done(opening)) {
        if (pthread_cond_timedwait(&opening_done, &openings, deadline) == ETIMEDOUT) return done(opening);
    }
    return 1;
}

static int no_stray(const struct opening *opening) {
    (void)opening;
    return !straying;
}

static int opened(const struct opening *opening) {
    return opening->finished;
}

static void did_not_answer(char *why, size_t why_size, const char *name, int timeout_ms) {
    if (timeout_ms % 1000 == 0)
        say(why, why_size, "the X server %s did not answer within %d s", name, timeout_ms / 1000);
    else
        say(why, why_size, "the X server %s did not answer within %d ms", name, timeout_ms);
}

// Whether the X library could be loaded; why not in `why`.
static int loaded_or_say(char *why, size_t why_size) {
    pthread_once(&loaded, load);
    if (x.failure[0]) {
        say(why, why_size, "%s", x.failure);
        return 0;
    }
    return 1;
}

// A new opening of `display` (NULL: $DISPLAY) for `properties`; NULL when out of memory.
static struct opening *new_opening(const char *display, const char *properties, char *why, size_t why_size) {
    struct opening *opening = calloc(1, sizeof *opening);
    if (!opening) {
        say(why, why_size, "out of memory");
        return NULL;
    }
    if (display) {
        opening->has_display = 1;
        snprintf(opening->display, sizeof opening->display, "%s", display);
    }
    snprintf(opening->properties, sizeof opening->properties, "%s", properties);
    return opening;
}

static void free_opening(struct opening *opening) {
    free(opening->devices);
    free(opening);
}

// Runs `opening` on a thread of its own and waits for it, at most `timeout_ms`. 1 when it
// finished: the caller reads its result and frees it. 0 with why in `why` when it did not: it
// was freed, or left to its thread, which frees it.
static int run_opening(struct opening *opening, int timeout_ms, char *why, size_t why_size) {
    // The display's name, kept: the opening may be freed before the messages are written.
    char name[sizeof opening->display];
    snprintf(name, sizeof name, "%s", server_name(opening->has_display ? opening->display : NULL));
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&openings);
    // One connection waits for an X server at a time: a server that never answers holds one
    // thread, not one per try.
    if (!wait_until(&deadline, no_stray, opening)) {
        pthread_mutex_unlock(&openings);
        free_opening(opening);
        say(why, why_size, "the X server %s has still not answered an earlier connection", name);
        return 0;
    }
    // The thread takes no signal of the process's: they are the caller's to handle. A fault
    // (a crash in the thread) still reaches its handlers (a sanitizer's, a backtracer's): the
    // kernel would end the process without them if it were blocked.
    sigset_t all, previous;
    sigfillset(&all);
    const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS};
    for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++) sigdelset(&all, faults[i]);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    // A small stack: Xlib's connection (and getaddrinfo for a TCP display) needs tens of kB,
    // and glibc's default, 8 MB, is backed by a 2 MB transparent huge page once the thread
    // touches it on a kernel with THP "always" (Debian's): 2 MB resident per thread, kept in
    // glibc's stack cache after it ends. Smaller than 2 MB, a stack holds no huge page.
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, FLICKD_XTHREAD_STACK);
    pthread_t thread;
    int started = pthread_create(&thread, &attributes, open_on_thread, opening);
    pthread_attr_destroy(&attributes);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (started != 0) {
        pthread_mutex_unlock(&openings);
        free_opening(opening);
        say(why, why_size, "cannot start a thread to connect to the X server: %s", strerror(started));
        return 0;
    }
    pthread_detach(thread);
    if (!wait_until(&deadline, opened, opening)) {
        opening->abandoned = 1;
        straying = 1;
        pthread_mutex_unlock(&openings);
        did_not_answer(why, why_size, name, timeout_ms);
        return 0;
    }
    pthread_mutex_unlock(&openings);
    return 1;
}

flickd_xwatch *flickd_xwatch_open(const char *display, const char *properties, int timeout_ms, char *why, size_t why_size) {
    if (!loaded_or_say(why, why_size)) return NULL;
    struct opening *opening = new_opening(display, properties, why, why_size);
    if (!opening || !run_opening(opening, timeout_ms, why, why_size)) return NULL;
    flickd_xwatch *watch = opening->watch;
    if (!watch) say(why, why_size, "%s", opening->why);
    free_opening(opening);
    return watch;
}

int flickd_xread(const char *display, const char *properties, int timeout_ms, flickd_xdevice *devices, int capacity,
                 char *why, size_t why_size) {
    if (!loaded_or_say(why, why_size)) return -1;
    struct opening *opening = new_opening(display, properties, why, why_size);
    if (!opening) return -1;
    opening->reading = 1;
    opening->capacity = capacity > 0 ? capacity : 0;
    // The thread's own buffer: one it outlives the caller with is freed by it.
    opening->devices = calloc((size_t)opening->capacity + 1, sizeof *opening->devices);
    if (!opening->devices) {
        free(opening);
        say(why, why_size, "out of memory");
        return -1;
    }
    if (!run_opening(opening, timeout_ms, why, why_size)) return -1;
    int count = opening->count;
    if (count < 0) say(why, why_size, "%s", opening->why);
    else memcpy(devices, opening->devices, (size_t)count * sizeof *devices);
    free_opening(opening);
    return count;
}

int flickd_xwatch_fd(const flickd_xwatch *watch) {
    return watch->fd;
}

// What `receive_events` counted.
struct receiving {
    struct flickd_xwatch *watch;
    int changes;
};

static void receive_events(void *argument) {
    struct receiving *receiving = argument;
    struct flickd_xwatch *watch = receiving->watch;
    while (!*watch->lost && x.XPending(watch->display) > 0) {
        XEvent event;
        x.XNextEvent(watch->display, &event);
        XGenericEventCookie *cookie = &event.xcookie;
        if (cookie->type != GenericEvent || cookie->extension != watch->opcode ||
            !x.XGetEventData(watch->display, cookie))
            continue;
        if (cookie->evtype == XI_PropertyEvent) {
            Atom changed = ((XIPropertyEvent *)cookie->data)->property;
            for (int i = 0; i < watch->property_count; i++) {
                if (changed == watch->properties[i]) {
                    receiving->changes += 1;
                    break;
                }
            }
        }
        x.XFreeEventData(watch->display, cookie);
    }
}

int flickd_xwatch_receive(flickd_xwatch *watch) {
    if (*watch->lost) return -1;
    struct receiving receiving = {.watch = watch};
    if (escapable(0, receive_events, &receiving)) *watch->lost = ABANDONED;
    return *watch->lost ? -1 : receiving.changes;
}

void flickd_xlib_escape_every_call(void) {
    escape_every_call = 1;
}

void flickd_xwatch_close(flickd_xwatch *watch) {
    if (!watch) return;
    // XCloseDisplay waits for the server's answer to a last request, which a server that has
    // stopped answering never gives: with reading shut down that wait ends at once, as on a
    // lost connection (the handlers above), and nothing is written to a closed socket.
    close_watch(watch, 1);
}
