/* test_host_lines.c - a program address in a report turned into its line
 * (run/host_lines.h): each address takes addr2line's answer in order, a
 * path shortened to the file's name, an answer of no line ("??:0", "??:?",
 * a line 0) leaves the address as it was, and a text without one is left
 * alone. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "run/host_lines.h"

Test(host_lines, each_address_takes_its_answer_in_order)
{
    const char *text = "error\thost-copy-overflow\tcudaMemcpy at program address 0x1a2b copied 8 bytes\n"
                       "error\thost-copy-overflow\tcudaMemcpy at program address 0xff copied 4 bytes\n";
    char *out = host_lines_apply(text, "/tmp/build/x/wb_lab.cu:115\nmain.cu:7 (discriminator 2)\n");
    cr_assert_str_eq(out, "error\thost-copy-overflow\tcudaMemcpy at wb_lab.cu:115 copied 8 bytes\n"
                          "error\thost-copy-overflow\tcudaMemcpy at main.cu:7 copied 4 bytes\n");
    free(out);
}

Test(host_lines, no_line_known_leaves_the_address)
{
    const char *text = "a at program address 0x10 b at program address 0x20 c at program address 0x30 d";
    char *out = host_lines_apply(text, "??:0\nx.cu:0\n??:?\n");
    cr_assert_str_eq(out, text);
    free(out);
    out = host_lines_apply(text, NULL); /* addr2line said nothing */
    cr_assert_str_eq(out, text);
    free(out);
    cr_assert_null(host_lines_apply("cudaMemcpy copied 8 bytes", "x.cu:1\n"), "no address: nothing to do");
}
