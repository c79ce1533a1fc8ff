/* test_batch_gpu.c - end to end, without a GPU: the plumbing of the per-GPU
 * timing queues in `cugrade batch`. CUGRADE_GPU_COUNT=2 makes the grader
 * believe in two GPUs (the programs then fail for want of a device, which is
 * fine here): two workers' children, offered both GPUs
 * (CUGRADE_GPU_CHOICE=fewest), must each take their own (the one nobody sits
 * on; a tie goes to the worker's) and join its queue, each child must be
 * told of its one GPU, and the banner must say so. CUGRADE_CANARY=skip: the canary (the reference on a
 * dataset) would fail for want of a device and stop the batch before
 * anyone is graded, as it should on a real machine with a broken GPU.
 * CUGRADE_REPLAY=off: auto then grades on the GPU itself (the gpu backend's
 * queues are what is tested here), not on the executor with its launches
 * replayed there (test_vgpu_replay.c's batch). Needs nvcc (compile only);
 * skipped without it. */
#include "e2e.h"

#include "build/build.h"

Test(batch_gpu, two_workers_use_two_gpu_queues, .timeout = 600)
{
    char nvcc[4096];
    if (find_program("nvcc", nvcc, sizeof nvcc) != 0 && !is_file("/usr/local/cuda/bin/nvcc"))
        cr_skip("nvcc not found: the gpu backend cannot build here");
    char dir[64], subs[128], out[128], datasets[128], cmd[1024];
    snprintf(dir, sizeof dir, "/tmp/cugrade-bgpu-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(datasets, sizeof datasets, "%s/datasets", dir);
    const char *shapes[] = {"16x16x16", NULL};
    make_datasets(datasets, shapes);
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/ann %s/bob && cp reference/lab3/matmul.cu %s/ann/ && "
             "cp tests/submissions/lab3/tile32.cu %s/bob/matmul.cu", subs, subs, subs, subs);
    cr_assert_eq(system(cmd), 0);
    char *argv[] = {"bin/cugrade", "batch", "--lab", "lab3", "--out", out, "--backend", "auto",
                    "--checks", "none", "--jobs", "2", "--datasets", datasets, subs, NULL};
    char *env[] = {"CUGRADE_GPU_COUNT=2", "CUGRADE_NVCC_ARCH=sm_90", "CUGRADE_CANARY=skip",
                   "CUGRADE_GPU_CHOICE=fewest", "CUGRADE_REPLAY=off", NULL};
    run_spec_t spec = {.argv = argv, .extra_env = env, .timeout_s = 600, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "2 at once on 2 GPU(s) (built for sm_90), one timing queue each; "
                               "a submission takes the GPU fewest are on once it is built"),
              "%s", r.output);
    char path[256];
    /* each child was told of the one GPU it sees, not the batch's two */
    for (int s = 0; s < 2; s++) {
        snprintf(path, sizeof path, "%s/%s/measurements.json", out, s ? "bob" : "ann");
        json_object *m = json_object_from_file(path), *why;
        cr_assert(m && json_object_object_get_ex(m, "backend_why", &why), "%s has no backend_why", path);
        cr_assert_str_eq(json_object_get_string(why), "auto: 1 CUDA device found and no executor with a replay "
                         "runner (nvcc, bin/cugrade-vgpu, bin/cugrade-replay), so the program on the GPU");
        json_object_put(m);
    }
    for (int gpu = 0; gpu < 2; gpu++) {
        snprintf(path, sizeof path, "%s/.gpu-queue/gpu%d.lock", out, gpu);
        cr_assert(is_file(path), "GPU %d's queue was never joined:\n%s", gpu, r.output);
    }
    for (int gpu = 0; gpu < 2; gpu++) { /* each child took its GPU itself (gpu_choice.h) */
        snprintf(path, sizeof path, "%s/.gpu-queue/gpu%d.seat0", out, gpu);
        cr_assert(is_file(path), "no child sat on GPU %d:\n%s", gpu, r.output);
    }
    snprintf(path, sizeof path, "%s/.gpu-queue/gpu2.lock", out);
    cr_assert(!is_file(path), "there is no GPU 2");
    /* each queue's log holds its worker's student's holds; the class summary says where
     * each GPU's time went, and summary.json keeps it */
    const char *ids[2] = {NULL, NULL};
    for (int gpu = 0; gpu < 2; gpu++) {
        snprintf(path, sizeof path, "%s/.gpu-queue/gpu%d.holds", out, gpu);
        char *log = read_file(path, NULL, NULL, 0);
        cr_assert_not_null(log, "GPU %d's queue has no log", gpu);
        ids[gpu] = strstr(log, " S ") && strstr(log, " ann\n") ? "ann" : "bob";
        cr_assert(strstr(log, ids[gpu][0] == 'a' ? " bob\n" : " ann\n") == NULL,
                  "both students' holds in GPU %d's log:\n%s", gpu, log);
        free(log);
        char line[32];
        snprintf(line, sizeof line, "\ngpu: GPU %d: ", gpu);
        cr_assert(strstr(r.output, line), "no '%s' line:\n%s", line + 1, r.output);
    }
    cr_assert(strcmp(ids[0], ids[1]) != 0, "one student per GPU");
    snprintf(path, sizeof path, "%s/summary.json", out);
    json_object *sum = json_object_from_file(path), *queues;
    cr_assert(sum && json_object_object_get_ex(sum, "gpu_queues", &queues) &&
              json_object_array_length(queues) == 2, "summary.json has no gpu_queues of 2");
    json_object_put(sum);
    snprintf(path, sizeof path, "%s/class.html", out);
    char *html = read_file(path, NULL, NULL, 0);
    cr_assert(html && strstr(html, "<div class=\"card\" id=\"gpu-use\"><h2>The GPUs' time</h2><pre>GPU 0: "),
              "class.html does not say where the GPUs' time went");
    free(html);
    run_result_free(&r);
    rm_rf(dir);
}
