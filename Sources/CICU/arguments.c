// The program's arguments as the loader passed them. glibc calls every
// .init_array function with (argc, argv, envp) before main: kept here, pm
// needs neither /proc (absent in a chroot or a sandbox) nor an untouched
// environ (a preloaded library's setenv moves it) to know what it was asked.
#include "CICU.h"

static int pm_saved_argc;
static char **pm_saved_argv;

static void pm_save_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    pm_saved_argc = argc;
    pm_saved_argv = argv;
}

__attribute__((section(".init_array"), used)) static void (*pm_save_arguments_entry)(int, char **, char **) =
    pm_save_arguments;

int pm_argument_count(void) { return pm_saved_argv ? pm_saved_argc : 0; }

const char *pm_argument(int index) {
    if (!pm_saved_argv || index < 0 || index >= pm_saved_argc) return 0;
    return pm_saved_argv[index];
}
