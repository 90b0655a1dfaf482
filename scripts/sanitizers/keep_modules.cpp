// Linked into the programs of the sanitizer build that draw with OpenGL (FLEXIM_SANITIZE=ON).
//
// Mesa unloads its driver (swrast_dri.so with libLLVM) when the X display closes, which is before
// LeakSanitizer's check at exit. LSan then no longer sees the pointers that the driver's globals
// still held, so memory in use is reported as leaked, and it cannot name the module the
// allocation came from, so no suppression can match. Keeping every loaded module until exit
// avoids both: this definition is found before libc's, and unloads nothing.
extern "C" int dlclose(void*) { return 0; }
