/* test_srccheck.c - the source check (build/srccheck.h) on small files
 * written here: each refused form of #include, #embed and file-reading
 * assembler directives, however spelt (comments, backslash-newlines,
 * digraphs, trigraphs, adjacent literals, escapes, raw strings), is named
 * with its file and line; what the labs' stubs, references and shipped
 * submissions include passes. Then the check of the compiler's -E output:
 * a directive spelt by macros, and a file from outside the allowed folders.
 * Runs from the repository root. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build/srccheck.h"
#include "run/runner.h"
#include "util/util.h"

static char dir[64];
static const char *const lab_headers[] = {"labs/common", "emu/include", NULL};

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-srccheck-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void) { rm_rf(dir); }

TestSuite(srccheck, .init = setup, .fini = teardown);

/* Writes text to <dir>/name; returns the path. */
static const char *put(const char *name, const char *text)
{
    static char path[4][256];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 256, "%s/%s", dir, name);
    char sub[256];
    snprintf(sub, sizeof sub, "%s", p);
    *strrchr(sub, '/') = '\0';
    cr_assert_eq(mkdir_p(sub, NULL, 0), 0);
    cr_assert_eq(write_file_atomic(p, text, strlen(text), NULL, 0), 0);
    return p;
}

static int check(const char *text, srccheck_result_t *r)
{
    return srccheck_source(put("main.cu", text), lab_headers, r);
}

/* text is refused at line, with what containing part, in file name. */
static void refused_at(const char *text, int line, const char *part, const char *name)
{
    srccheck_result_t r;
    int rc = check(text, &r);
    cr_assert_eq(rc, 1, "not refused (rc %d: %s):\n%s", rc, r.what, text);
    cr_expect_eq(r.line, line, "line %d, not %d: %s\n%s", r.line, line, r.what, text);
    cr_expect(strstr(r.what, part), "'%s' does not say '%s'", r.what, part);
    cr_expect(strcmp(path_base(r.file), name) == 0, "in %s, not %s", r.file, name);
}

static void allowed(const char *text)
{
    srccheck_result_t r;
    int rc = check(text, &r);
    cr_assert_eq(rc, 0, "refused: %s:%d: %s\n%s", r.file, r.line, r.what, text);
}

Test(srccheck, absolute_and_dotdot_includes_are_refused)
{
    refused_at("int a;\n\n#include \"/etc/hostname\"\n", 3, "includes \"/etc/hostname\" by an "
               "absolute path", "main.cu");
    refused_at("#include </work/datasets/lab3/0/output.raw>\n", 1, "by an absolute path", "main.cu");
    refused_at("\n#include <../reference/lab3/matmul.cu>\n", 2, "<../reference/lab3/matmul.cu> "
               "by a path with \"..\"", "main.cu");
    refused_at("#include \"sub/../../x.h\"\n", 1, "by a path with \"..\"", "main.cu");
    refused_at("#include <a//../../x>\n", 1, "by a path with \"..\"", "main.cu"); /* no comment */
    refused_at("#include_next </etc/hostname>\n", 1, "absolute path", "main.cu");
    refused_at("#import \"/etc/hostname\"\n", 1, "absolute path", "main.cu");
}

Test(srccheck, computed_includes_and_embed_are_refused)
{
    refused_at("#define F \"/etc/hostname\"\nint x;\n#include F\n", 3,
               "includes a computed name (#include F)", "main.cu");
    refused_at("#define S(x) #x\n#include S(x.h)\n", 2, "computed name", "main.cu");
    refused_at("#embed \"data.bin\"\n", 1, "embeds a file's bytes (#embed)", "main.cu");
}

/* __has_include tells at compile time whether a file exists: only names
 * an #include could have are probed. */
Test(srccheck, has_include_probes_only_what_an_include_could_name)
{
    refused_at("int a;\n#if __has_include(\"/tmp/cugrade-x-hidden/1/output.raw\")\n#endif\n", 2,
               "probes \"/tmp/cugrade-x-hidden/1/output.raw\" by an absolute path", "main.cu");
    refused_at("#if __has_include_next( <../../datasets/lab3/0/output.raw> )\n#endif\n", 1,
               "by a path with \"..\" (__has_include_next)", "main.cu");
    refused_at("#define P \"/etc/hostname\"\n#if __has_include(P)\n#endif\n", 2,
               "the name it probes must be written out", "main.cu");
    refused_at("#define H __has_include\n#if H(\"/etc/hostname\")\n#endif\n", 1,
               "uses __has_include other than as", "main.cu");
    refused_at("#if 1 + __has_include\n#endif\n", 1, "uses __has_include", "main.cu");
    refused_at("#if undefined(__has_include)\n#endif\n", 1, "uses __has_include", "main.cu");
    refused_at("#if defined __has_include (\"/etc/hostname\")\n#endif\n", 1, "absolute path",
               "main.cu");
    refused_at("#if __has_incl\\\nude(\"/etc/hostname\")\n#endif\n", 1, "absolute path",
               "main.cu");
    put("probed.h", "#include \"/etc/hostname\"\n");
    refused_at("#if __has_include(\"probed.h\")\n#endif\n", 1, "absolute path", "probed.h");
    allowed("#if defined __has_include && defined( __has_include_next )\n#endif\n"
            "#ifdef __has_include\n#endif\n#ifndef __has_include\n#endif\n");
    allowed("#if __has_include(<cuda_runtime.h>) && __has_include( \"missing.h\" )\n#endif\n"
            "int has_include_count; /* __has_include_x */\nconst char *s = \"__has_include\";\n");
}

Test(srccheck, spellings_of_the_directive_are_seen)
{
    refused_at("#  include \"/etc/hostname\"\n", 1, "absolute path", "main.cu");
    refused_at("  /* c */ # /* c */ include /* c */ </etc/hostname>\n", 1, "absolute path", "main.cu");
    refused_at("int a;\n#inc\\\nlude \"/etc/\\\nhostname\"\n", 2, "\"/etc/hostname\"", "main.cu");
    refused_at("int a;\n#include \\  \n\"/etc/hostname\"\n", 2, "absolute path", "main.cu");
    refused_at("%:include \"/etc/hostname\"\n", 1, "absolute path", "main.cu");
    refused_at("%: include <../x.h>\n", 1, "\"..\"", "main.cu");
    refused_at("?\?=include \"/etc/hostname\"\n", 1, "absolute path", "main.cu");
    refused_at("#include ?\?/\n\"/etc/hostname\"\n", 1, "absolute path", "main.cu");
    refused_at("#include/**/</etc/hostname>\n", 1, "absolute path", "main.cu");
    refused_at("#include\"/etc/hostname\"\n", 1, "absolute path", "main.cu");
    refused_at("#include\t<\\\n/etc/hostname>\n", 1, "absolute path", "main.cu");
}

Test(srccheck, comments_strings_and_raw_strings_hide_nothing)
{
    allowed("// #include \"/etc/hostname\"\n/* #include \"/etc/hostname\"\n */ int x;\n");
    allowed("const char *s = \"#include \\\"/etc/hostname\\\"\";\n");
    allowed("const char *r = R\"x(\n#include \"/etc/hostname\"\n)x\";\n");
    /* a comment's end inside a raw string does not end it, nor a splice... */
    refused_at("const char *s = R\"x( /* )x\";\n#include \"/etc/hostname\"\n// */\n", 2,
               "absolute path", "main.cu");
    refused_at("const char *s = R\"x( )x\\\n\" /* )x\";\n#include \"/etc/hostname\"\n// */\n", 3,
               "absolute path", "main.cu");
    /* ...nor a // comment inside a string */
    refused_at("const char *s = \"// \"; \n#include \"/etc/hostname\"\n", 2, "absolute", "main.cu");
    /* a digit separator is not a character literal */
    refused_at("int x = 1'000; asm(\".incbin \\\"/etc/hostname\\\"\");\n", 1, ".incbin", "main.cu");
    refused_at("char c = '\"';\n#include \"/etc/hostname\"\n", 2, "absolute", "main.cu");
    refused_at("/* a\n * b */\n\n#include \"/etc/hostname\"\n", 4, "absolute", "main.cu");
}

Test(srccheck, incbin_in_any_string_literal_is_refused)
{
    refused_at("int a;\nasm(\".incbin \\\"/x\\\"\");\n", 2,
               "the assembler directive .incbin, which reads a file", "main.cu");
    refused_at("asm(\".inc\" \"bin \\\"/x\\\"\");\n", 1, "\"incbin\" once adjacent literals are "
               "joined", "main.cu");
    refused_at("asm(\".section .rodata\\n\"\n    \".inc\"\n    \"bin \\\"/x\\\"\");\n", 3,
               "incbin", "main.cu"); /* the line of the literal that completes it */
    refused_at("int a;\n__asm__ (\".in\"\n   \"c\" /* x */ \"bin\" \"\\\"/x\\\"\");\n", 3, "incbin",
               "main.cu");
    refused_at("__asm__(\".inc\\x62in \\\"/x\\\"\");\n", 1, "incbin", "main.cu");
    refused_at("asm(\".\\151ncbin \\\"/x\\\"\");\n", 1, "incbin", "main.cu");
    refused_at("asm(\".\\u0069ncbin \\\"/x\\\"\");\n", 1, "incbin", "main.cu");
    refused_at("asm(\".INCBIN \\\"/x\\\"\");\n", 1, "incbin", "main.cu");
    refused_at("asm(u8\".inc\" R\"(bin \"/x\")\");\n", 1, "incbin", "main.cu");
    refused_at("asm(R\"--(.inc)--\" \"bin\");\n", 1, "incbin", "main.cu");
    refused_at("asm(\".inc\\\nbin\");\n", 1, "incbin", "main.cu");
    refused_at("#define D \".incbin \\\"/x\\\"\"\nvoid f() { asm(D); }\n", 1, "incbin", "main.cu");
    refused_at("asm(\".include \\\"/x\\\"\");\n", 1, "the assembler directive .include", "main.cu");
    refused_at("asm(\".macro m a\\n.inc\\\\a \\\"/x\\\"\\n.endm\\nm bin\");\n", 1,
               "assembler macro (.macro)", "main.cu");
    refused_at("asm(\".irp x,bin\\n.inc\\\\x \\\"/x\\\"\\n.endr\");\n", 1, ".irp", "main.cu");
}

Test(srccheck, quoted_includes_are_followed_in_the_folder)
{
    put("helper.h", "#define H 1\n");
    put("sub/deep.h", "#include \"leaf.h\"\n");
    put("sub/leaf.h", "int leaf;\n");
    allowed("#include \"helper.h\"\n#include \"sub/deep.h\"\n#include <helper.h>\n");
    put("evil.h", "int e;\n\nasm(\".inc\" \"bin \\\"/x\\\"\");\n");
    refused_at("#include \"helper.h\"\n#include \"evil.h\"\n", 3, "incbin", "evil.h");
    put("sub/leaf.h", "int leaf;\n#include \"/etc/hostname\"\n");
    refused_at("#include \"sub/deep.h\"\n", 2, "absolute path", "leaf.h");
    put("angle.h", "#include </etc/hostname>\n");
    refused_at("#include <angle.h>\n", 1, "absolute path", "angle.h"); /* -I<folder> */
    put("a.h", "#include \"b.h\"\n");
    put("b.h", "#include \"a.h\"\n");
    allowed("#include \"a.h\"\n"); /* a cycle ends */
}

Test(srccheck, quoted_files_outside_the_folder_are_refused)
{
    refused_at("#include <stdio.h>\n#include \"nothere.h\"\n", 2, "includes \"nothere.h\", which "
               "is neither in the submission's folder nor one of the lab's headers", "main.cu");
    refused_at("#include \"stdio.h\"\n", 1, "a system header is written <stdio.h>", "main.cu");
    char link[300];
    snprintf(link, sizeof link, "%s/out.h", dir);
    cr_assert_eq(symlink("/etc/hostname", link), 0);
    refused_at("#include \"out.h\"\n", 1, "a link that leads out of the submission's folder",
               "main.cu");
}

Test(srccheck, system_cuda_and_lab_headers_are_allowed)
{
    allowed("#include <stdio.h>\n#include <cuda_runtime.h>\n#include <wb.h>\n#include \"wb.h\"\n"
            "#include <sstream>\n#include \"cuda_runtime.h\"\n#include <sys/time.h>\n"
            "int a = 1 < 2, b = 3 > 2;\n#if 1 < 2\n#endif\n"
            "int main() { printf(\"#include \\\"/etc/hostname\\\" .inc bin\\n\"); }\n");
}

/* Every .cu file in folder passes, but the hostile ones named. */
static void all_allowed(const char *folder, const char *const *hostile)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "find %s -name '*.cu' | sort", folder);
    FILE *f = popen(cmd, "r");
    cr_assert_not_null(f);
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        int skip = 0;
        for (int i = 0; hostile && hostile[i]; i++)
            skip |= strstr(line, hostile[i]) != NULL;
        srccheck_result_t r;
        int rc = srccheck_source(line, lab_headers, &r);
        cr_expect_eq(rc, skip ? rc : 0, "%s refused: %s:%d: %s", line, r.file, r.line, r.what);
        n++;
    }
    pclose(f);
    cr_assert_gt(n, 0, "no .cu files under %s", folder);
}

Test(srccheck, the_labs_stubs_references_and_submissions_pass)
{
    all_allowed("student", NULL);
    all_allowed("reference", NULL);
    /* a lab's library baseline is the bench's (bench/gpu_labs/baselines.sh), built with its
     * headers outside any grading: never checked as a submission */
    static const char *const baselines[] = {"/baseline.cu", NULL};
    all_allowed("labs", baselines);
    all_allowed("tests/submissions", NULL);
}

/* ---- the compiler's preprocessed output ---- */

static const char *const own_dirs[] = {"labs/common", "emu/include", NULL};
static const char *const system_dirs[] = {"/usr", NULL};

/* Preprocesses file like the emu backend (emucc -E) into a malloc'd text. */
static char *preprocess(const char *file, size_t *len)
{
    char inc[300], out[300];
    snprintf(inc, sizeof inc, "-I%s", dir);
    snprintf(out, sizeof out, "%s/pre.i", dir);
    char *argv[] = {"bin/emucc", "-E", "-c", "-O2", inc, "-Ilabs/common", (char *)file, "-o", out,
                    NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 60};
    run_result_t res;
    run_one(&spec, &res);
    cr_assert(res.exited && res.exit_code == 0, "emucc -E failed: %s", res.output);
    run_result_free(&res);
    char *text = read_file(out, len, NULL, 0);
    cr_assert_not_null(text);
    return text;
}

/* The submission's folder is folder. */
static int check_expanded(const char *text, size_t len, const char *folder, srccheck_result_t *r)
{
    char cwd[PATH_MAX];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    const char *allowed_dirs[] = {own_dirs[0], own_dirs[1], folder, NULL};
    srccheck_dirs_t dirs = {.allowed = allowed_dirs, .root = cwd, .system = system_dirs};
    return srccheck_expanded(text, len, &dirs, r);
}

Test(srccheck, macros_that_spell_incbin_are_seen_once_expanded)
{
    const char *src = put("main.cu", "#include <stdio.h>\n#define S(x) #x\n\n"
                                     "void f() { asm(S(.inc) S(bin) \" \\\"/etc/hostname\\\"\"); }\n");
    srccheck_result_t r;
    cr_assert_eq(srccheck_source(src, lab_headers, &r), 0, "%s", r.what); /* not seen here */
    size_t len;
    char *text = preprocess(src, &len);
    cr_assert_eq(check_expanded(text, len, dir, &r), 1, "not refused");
    cr_expect_eq(r.line, 4, "%s:%d", r.file, r.line);
    cr_expect_str_eq(r.file, src);
    cr_expect(strstr(r.what, "once macros are expanded"), "%s", r.what);
    free(text);
}

Test(srccheck, the_references_pass_once_expanded)
{
    const char *refs[] = {"reference/lab3/matmul.cu", "reference/lab3-wb/template.cu", NULL};
    for (int i = 0; refs[i]; i++) {
        size_t len;
        char *text = preprocess(refs[i], &len);
        srccheck_result_t r;
        char folder[PATH_MAX];
        snprintf(folder, sizeof folder, "%s", refs[i]);
        *strrchr(folder, '/') = '\0';
        cr_expect_eq(check_expanded(text, len, folder, &r), 0, "%s: %s:%d: %s", refs[i], r.file, r.line,
                     r.what);
        free(text);
    }
}

Test(srccheck, a_file_outside_the_allowed_folders_is_refused_once_expanded)
{
    char cwd[PATH_MAX], text[4 * PATH_MAX];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    snprintf(text, sizeof text, "# 1 \"%s/main.cu\"\nint a;\nint b;\n# 1 \"%s/datasets/lab3/0/"
             "output.raw\" 1\n16 16\n# 4 \"%s/main.cu\" 2\n", dir, cwd, dir);
    srccheck_result_t r;
    cr_assert_eq(check_expanded(text, strlen(text), dir, &r), 1, "not refused");
    cr_expect(strstr(r.what, "datasets/lab3/0/output.raw, which is neither in its folder"), "%s",
              r.what);
    cr_expect_eq(r.line, 3, "%s:%d", r.file, r.line);
    snprintf(text, sizeof text, "# 1 \"%s/main.cu\"\n# 1 \"/etc/hostname\" 1\nx\n", dir);
    cr_assert_eq(check_expanded(text, strlen(text), dir, &r), 1, "not refused");
    cr_expect(strstr(r.what, "/etc/hostname"), "%s", r.what);
}
