/* test_archive.c - the safety rules of submission archives (archive.c, on
 * libarchive): good .zip, .tar.gz and .tar archives unpack; symlinks, hard
 * links, fifos, absolute paths, `..`, too many entries, too many bytes, a
 * zip bomb (stopped while it inflates, with less than the cap on disk) and a
 * high compression ratio are each refused with a message naming the archive
 * and the entry. Archives are made here with libarchive's writer
 * (tests/attacks/archive_fixtures.h). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../attacks/archive_fixtures.h"
#include "batch/archive.h"
#include "util/util.h"

static char dir[64], out[128];
static char err[512];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-arch-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/out", dir);
    cr_assert_eq(mkdir(out, 0755), 0);
    err[0] = '\0';
}

static void teardown(void) { rm_rf(dir); }

TestSuite(archive, .init = setup, .fini = teardown);

static const char *at(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static void make(const char *name, fx_format_t fmt, const fx_entry_t *ents, int n)
{
    cr_assert_eq(fx_write(at(name), fmt, ents, n), 0, "cannot write the fixture %s", name);
}

/* The refusal of validating name (asserted to be one). */
static const char *refusal(const char *name)
{
    cr_assert_eq(archive_validate(at(name), err, sizeof err), -1, "%s was accepted", name);
    return err;
}

static void assert_says(const char *text, const char *part)
{
    cr_assert(strstr(text, part), "expected \"%s\" in: %s", part, text);
}

static long long disk_bytes;
static int add_usage(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)path, (void)flag, (void)f;
    disk_bytes += (long long)st->st_blocks * 512;
    return 0;
}

/* Bytes the folder's tree takes on disk (blocks, not sizes). */
static long long disk_usage(const char *path)
{
    disk_bytes = 0;
    nftw(path, add_usage, 16, FTW_PHYS);
    return disk_bytes;
}

static int entries_in(const char *path)
{
    DIR *d = opendir(path);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

Test(archive, kind_and_student_id_from_the_name)
{
    size_t stem = 0;
    cr_assert_eq(archive_kind("alice.zip", &stem), ARCHIVE_ZIP);
    cr_assert_eq(stem, 5);
    cr_assert_eq(archive_kind("bob.tar.gz", &stem), ARCHIVE_TGZ);
    cr_assert_eq(stem, 3);
    cr_assert_eq(archive_kind("carol.tgz", &stem), ARCHIVE_TGZ);
    cr_assert_eq(archive_kind("dave.tar", &stem), ARCHIVE_TAR);
    cr_assert_eq(stem, 4);
    cr_assert_eq(archive_kind("erin.cu", &stem), ARCHIVE_NONE);
    cr_assert_eq(archive_kind(".zip", &stem), ARCHIVE_NONE);
}

static const fx_entry_t good[] = {
    {"s", FX_DIR, NULL, 0, 0},
    {"s/lab3/matmul.cu", FX_FILE, FX_KERNEL, 0, 0},
    {"./s/notes.txt", FX_FILE, "hello\n", 0, 0},
    {"s/data.bin", FX_FILE, NULL, 300000, 7},
};

static void assert_good_unpacks(const char *name, fx_format_t fmt)
{
    make(name, fmt, good, FX_N(good));
    cr_assert_eq(archive_unpack(at(name), out, err, sizeof err), 0, "%s: %s", name, err);
    char path[256];
    snprintf(path, sizeof path, "%s/s/lab3/matmul.cu", out);
    char *text = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(text, "%s: no s/lab3/matmul.cu", name);
    cr_assert_str_eq(text, FX_KERNEL);
    free(text);
    snprintf(path, sizeof path, "%s/s/data.bin", out);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_size, 300000);
    snprintf(path, sizeof path, "%s/s/notes.txt", out);
    cr_assert(is_file(path), "%s: './s/notes.txt' did not land in s/", name);
}

Test(archive, a_good_zip_unpacks) { assert_good_unpacks("good.zip", FX_ZIP); }
Test(archive, a_good_tar_gz_unpacks) { assert_good_unpacks("good.tgz", FX_TGZ); }
Test(archive, a_good_tar_unpacks) { assert_good_unpacks("good.tar", FX_TAR); }

Test(archive, the_content_decides_not_the_extension)
{
    make("really-a-tgz.zip", FX_TGZ, good, FX_N(good));
    cr_assert_eq(archive_unpack(at("really-a-tgz.zip"), out, err, sizeof err), 0, "%s", err);
}

/* Every fixture attack is refused with its message, naming the archive, and
 * archive_unpack leaves nothing in the destination. */
Test(archive, every_attack_is_refused_with_its_message_and_nothing_unpacked, .timeout = 120)
{
    for (size_t i = 0; i < sizeof fx_attacks / sizeof *fx_attacks; i++) {
        const fx_attack_t *a = &fx_attacks[i];
        cr_assert_eq(fx_make_attack(dir, a), 0, "cannot write %s", a->file);
        int rc = archive_unpack(at(a->file), out, err, sizeof err);
        cr_assert_eq(rc, -1, "%s was unpacked", a->file);
        assert_says(err, a->file);
        assert_says(err, a->says);
        if (strcmp(a->file, "twice.tar") != 0) /* refused only while writing */
            cr_assert_eq(entries_in(out), 0, "%s: something was unpacked", a->file);
        rm_rf(out);
        mkdir(out, 0755);
        unlink(at(a->file));
    }
}

Test(archive, a_symlink_is_refused_in_tar_too)
{
    make("link.tgz", FX_TGZ, fx_symlink, FX_N(fx_symlink));
    assert_says(refusal("link.tgz"),
                "link.tgz: entry 'lab3/matmul.cu' refused: a symbolic link (to '/etc/passwd'); "
                "only regular files and folders are unpacked");
}

Test(archive, absolute_and_dot_dot_paths_are_refused_in_both_formats)
{
    static const fx_entry_t win[] = {{"C:\\x\\matmul.cu", FX_FILE, "x", 0, 0}};
    static const fx_entry_t back[] = {{"lab3\\..\\..\\evil.cu", FX_FILE, "x", 0, 0}};
    static const fx_entry_t bare[] = {{"..", FX_DIR, NULL, 0, 0}};
    make("abs.zip", FX_ZIP, fx_absolute, 1);
    assert_says(refusal("abs.zip"), "an absolute path");
    make("dd.tgz", FX_TGZ, fx_dotdot, 1);
    assert_says(refusal("dd.tgz"), "dd.tgz: entry 'lab3/../../cugrade-pwned.cu' refused: a path with '..'");
    make("win.zip", FX_ZIP, win, 1);
    assert_says(refusal("win.zip"), "an absolute path");
    make("back.zip", FX_ZIP, back, 1);
    assert_says(refusal("back.zip"), "'..'");
    make("bare.tar", FX_TAR, bare, 1);
    assert_says(refusal("bare.tar"), "'..'");
}

Test(archive, a_control_character_in_a_name_is_refused)
{
    static const fx_entry_t nl[] = {{"lab3/mat\nmul.cu", FX_FILE, "x", 0, 0}};
    make("nl.tar", FX_TAR, nl, 1);
    assert_says(refusal("nl.tar"), "entry 'lab3/mat?mul.cu' refused: a control character");
}

/* The zip bomb is stopped while it inflates: written without checking first
 * (archive_walk with a destination), less than the per-file cap reaches
 * the disk. */
Test(archive, a_zip_bomb_is_stopped_while_it_inflates, .timeout = 60)
{
    make("bomb.zip", FX_ZIP, fx_bomb, 1);
    struct stat st;
    cr_assert_eq(stat(at("bomb.zip"), &st), 0);
    cr_assert_lt(st.st_size, 1 << 20, "the bomb is %lld bytes", (long long)st.st_size);
    assert_says(refusal("bomb.zip"), "bomb.zip: entry 'lab3/matmul.cu' refused: more than 10 MiB "
                                     "in one file (stopped while unpacking)");
    archive_src_t src = {.label = "bomb.zip", .path = at("bomb.zip")};
    cr_assert_eq(archive_walk(&src, out, err, sizeof err), -1);
    assert_says(err, "stopped while unpacking");
    long long used = disk_usage(out);
    cr_assert_leq(used, ARCHIVE_MAX_FILE_BYTES + (1 << 16), "%lld bytes on disk", used);
    cr_assert_gt(used, 0, "nothing was written: the cap was not reached by writing");
}

Test(archive, a_high_compression_ratio_is_refused)
{
    make("ratio.tgz", FX_TGZ, fx_ratio, FX_N(fx_ratio));
    assert_says(refusal("ratio.tgz"), "ratio.tgz: entry 'z1' refused: a compression ratio over 100:1");
}

Test(archive, more_than_twenty_mib_in_all_is_refused, .timeout = 60)
{
    static const fx_entry_t big[] = {{"a", FX_FILE, NULL, 7 << 20, 1},
                                     {"b", FX_FILE, NULL, 7 << 20, 2},
                                     {"c", FX_FILE, NULL, 7 << 20, 3}};
    make("big.tar", FX_TAR, big, FX_N(big));
    assert_says(refusal("big.tar"), "big.tar: entry 'c' refused: more than 20 MiB unpacked in all");
}

Test(archive, an_archive_over_the_input_cap_is_refused_unread)
{
    int fd = open(at("huge.zip"), O_WRONLY | O_CREAT, 0644);
    cr_assert_eq(ftruncate(fd, ARCHIVE_MAX_INPUT + 1), 0);
    close(fd);
    assert_says(refusal("huge.zip"), "huge.zip: the archive is 24 MiB; at most 24 MiB is accepted");
}

Test(archive, two_hundred_entries_pass_and_two_hundred_and_one_do_not)
{
    cr_assert_eq(fx_write_many(at("ok.tgz"), FX_TGZ, "m", ARCHIVE_MAX_ENTRIES), 0);
    cr_assert_eq(archive_validate(at("ok.tgz"), err, sizeof err), 0, "%s", err);
    cr_assert_eq(fx_write_many(at("many.zip"), FX_ZIP, "m", ARCHIVE_MAX_ENTRIES + 1), 0);
    assert_says(refusal("many.zip"), "many.zip: entry 'm/f201' refused: more than 200 entries");
}

Test(archive, not_an_archive_and_a_truncated_one_are_named)
{
    write_file_atomic(at("text.zip"), "not an archive\n", 15, NULL, 0);
    assert_says(refusal("text.zip"), "text.zip: not a zip or tar archive");
    make("cut.tgz", FX_TGZ, good, FX_N(good));
    size_t len;
    char *bytes = read_file(at("cut.tgz"), &len, NULL, 0);
    write_file_atomic(at("cut.tgz"), bytes, len / 2, NULL, 0);
    free(bytes);
    assert_says(refusal("cut.tgz"), "cut.tgz: ");
    cr_assert(strstr(err, "damaged") || strstr(err, "cannot read"), "%s", err);
}

Test(archive, a_bad_crc_is_refused)
{
    static const fx_entry_t one[] = {{"lab3/matmul.cu", FX_FILE, FX_KERNEL, 0, 0}};
    cr_assert_eq(fx_write_opts(at("crc.zip"), FX_ZIP, one, 1, "zip:compression=store"), 0);
    size_t len;
    char *bytes = read_file(at("crc.zip"), &len, NULL, 0), *k = memmem(bytes, len, "void", 4);
    cr_assert_not_null(k);
    k[0] = 'V';
    write_file_atomic(at("crc.zip"), bytes, len, NULL, 0);
    free(bytes);
    assert_says(refusal("crc.zip"), "crc.zip: entry 'lab3/matmul.cu' refused: cannot read its data");
    cr_assert(strstr(err, "CRC"), "%s", err);
}

Test(archive, a_file_under_a_file_is_refused_when_unpacking)
{
    static const fx_entry_t clash[] = {{"a", FX_FILE, "x", 0, 0}, {"a/b", FX_FILE, "y", 0, 0}};
    make("clash.tar", FX_TAR, clash, 2);
    cr_assert_eq(archive_unpack(at("clash.tar"), out, err, sizeof err), -1);
    assert_says(err, "clash.tar: entry 'a/b' refused: cannot unpack it: 'a' is already there and is not a folder");
}

Test(archive, a_buffer_reads_like_a_file_and_no_descriptor_leaks)
{
    make("good.zip", FX_ZIP, good, FX_N(good));
    size_t len;
    char *bytes = read_file(at("good.zip"), &len, NULL, 0);
    int before = entries_in("/proc/self/fd");
    archive_src_t src = {.label = "mem.zip", .data = bytes, .len = len};
    cr_assert_eq(archive_walk(&src, NULL, err, sizeof err), 0, "%s", err);
    cr_assert_eq(archive_walk(&src, out, err, sizeof err), 0, "%s", err);
    cr_assert_eq(archive_walk(&src, out, err, sizeof err), -1, "unpacked twice into one folder");
    for (int i = 0; i < 5; i++)
        archive_validate(at("good.zip"), err, sizeof err);
    cr_assert_eq(entries_in("/proc/self/fd"), before, "descriptors leaked");
    free(bytes);
}

/* Unpacking has a time limit (ARCHIVE_MAX_SECONDS), checked between data
 * blocks: an archive that takes longer is refused, the entry named. */
Test(archive, unpacking_past_its_time_limit_is_stopped)
{
    make("good.zip", FX_ZIP, good, FX_N(good));
    archive_src_t src = {.label = "slow.zip", .path = at("good.zip"), .max_seconds = 1e-9};
    cr_assert_eq(archive_walk(&src, out, err, sizeof err), -1);
    assert_says(err, "slow.zip: entry '");
    assert_says(err, "unpacking took more than 1e-09 s (stopped while unpacking)");
    src.max_seconds = 0; /* the default: plenty */
    cr_assert_eq(archive_walk(&src, NULL, err, sizeof err), 0, "%s", err);
}
