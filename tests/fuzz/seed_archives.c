/* seed_archives.c - writes the fuzz_archive harness's seed corpus
 * (tests/fuzz/corpus/archive/, committed; `make fuzz-seeds` rewrites it):
 * small archives, each under 2 KiB, of every format and of every attack of
 * tests/attacks/archive_fixtures.h that fits. */
#include "../attacks/archive_fixtures.h"

static const fx_entry_t good[] = {
    {"s", FX_DIR, NULL, 0, 0},
    {"s/lab3/matmul.cu", FX_FILE, FX_KERNEL, 0, 0},
    {"./s/notes.txt", FX_FILE, "hello\n", 0, 0},
};
static const fx_entry_t one[] = {{"lab3/matmul.cu", FX_FILE, "", 0, 0}};
static const fx_entry_t small_bomb[] = {{"z", FX_FILE, NULL, 1536 * 1024, 0}};
static const fx_entry_t long_name[] = {
    {"a-folder-name-long-enough-to-need-a-pax-header-because-ustar-holds-only-one-hundred-"
     "bytes/matmul.cu", FX_FILE, FX_KERNEL, 0, 0}};

typedef struct {
    const char *file;
    fx_format_t fmt;
    const fx_entry_t *ents;
    int n;
    const char *options;
} seed_t;

static const seed_t seeds[] = {
    {"good.zip", FX_ZIP, good, FX_N(good), NULL},
    {"good-store.zip", FX_ZIP, good, FX_N(good), "zip:compression=store"},
    {"good.tgz", FX_TGZ, good, FX_N(good), NULL},
    {"one.tar", FX_USTAR, one, FX_N(one), NULL},
    {"long-name.tgz", FX_TGZ, long_name, FX_N(long_name), NULL},
    {"small-bomb.zip", FX_ZIP, small_bomb, FX_N(small_bomb), NULL},
    {"symlink.zip", FX_ZIP, fx_symlink, FX_N(fx_symlink), "zip:compression=store"},
    {"symlink.tar", FX_USTAR, fx_symlink + 1, 1, NULL},
    {"absolute.tgz", FX_TGZ, fx_absolute, FX_N(fx_absolute), NULL},
    {"dotdot.zip", FX_ZIP, fx_dotdot, FX_N(fx_dotdot), NULL},
    {"hardlink.tgz", FX_TGZ, fx_hardlink, FX_N(fx_hardlink), NULL},
    {"fifo.tar", FX_USTAR, fx_fifo, FX_N(fx_fifo), NULL},
    {"twice.tgz", FX_TGZ, fx_twice, FX_N(fx_twice), NULL},
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: seed_archives DIR\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", argv[1], seeds[i].file);
        if (fx_write_opts(path, seeds[i].fmt, seeds[i].ents, seeds[i].n, seeds[i].options) != 0)
            return 1;
    }
    return 0;
}
