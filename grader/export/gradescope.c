/* gradescope.c - `cugrade export gradescope`: Gradescope's autograder.zip.
 * At its root setup.sh and run_autograder (Gradescope unpacks the zip into
 * /autograder/source and copies run_autograder to /autograder/), the
 * results helper gradescope_results.py, the cugrade tree the lab needs in
 * cugrade/, and the hidden datasets' secret in secret/hidden-seed, which
 * setup.sh moves out of the source folder (docs/exports.md). */
#include "export/export.h"
#include "export/export_tree.h"

int export_gradescope(const export_opts_t *o, char *err, size_t errlen)
{
    export_job_t j;
    if (export_begin(o, &j, err, errlen) != 0)
        return -1;
    if (export_template(&j, "gradescope/setup.sh", "setup.sh", 0755, err, errlen) != 0 ||
        export_template(&j, "gradescope/run_autograder", "run_autograder", 0755, err, errlen) ||
        export_template(&j, "gradescope/gradescope_results.py", "gradescope_results.py", 0644,
                        err, errlen) ||
        export_copy_tree(&j, "cugrade", 1, err, errlen) ||
        export_copy_secret(&j, "secret/hidden-seed", err, errlen)) {
        export_abort(&j);
        return -1;
    }
    return export_finish_zip(&j, err, errlen);
}
