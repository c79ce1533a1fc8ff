// forger.cu - a hostile program for the executor's tests (test_vgpu.cpp):
// it computes nothing on the device, prints a report of its own making on
// standard output, and then writes a request header that promises more
// bytes than the wire allows, as code that tampers with the runtime could.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <unistd.h>

int main()
{
    printf("{\"launches\": [{\"kernel\": \"forged\", \"status\": \"ok\"}]}\n");
    fflush(stdout);
    const char *fd = getenv("CUGRADE_VGPU_FD");
    if (!fd)
        return 4;
    uint32_t header[2] = {7, 0x7fffffff}; /* LAUNCH, 2 GiB */
    if (write(atoi(fd), header, sizeof header) != (ssize_t)sizeof header)
        return 5;
    char byte;
    return read(atoi(fd), &byte, 1) == 0 ? 0 : 6; /* the executor hangs up */
}
