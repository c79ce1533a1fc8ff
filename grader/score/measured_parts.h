/* measured_parts.h - internal to measured_json.c: the performance timing
 * and the checks' reports in measurements.json (measured_parts_json.c).
 *   timing:  {"device", "sm_clock_mhz", "bandwidth_gbs", "l2_bytes", "sms",
 *             "driver_version", "runtime_version", "speed_ratio",
 *             "shapes": [{"shape", "copy_gbs", "impls": [{"name",
 *             "median_ms", "mean_ms", "rse", "rate", "reps", "wrong"}]}]}
 *   reports: [{"label", "flop", "findings": [{"severity", "kind",
 *             "message"}], "stats": {"threads": 4096, ...}}], and a
 *             refused report (emureport.h) "refused": why, with no
 *             finding or statistic
 * Numbers are written so that they read back as the same doubles (jsonio.h). */
#ifndef CUGRADE_MEASURED_PARTS_H
#define CUGRADE_MEASURED_PARTS_H

#include "course/config.h"
#include "score/checks.h"
#include "score/perf.h"

struct json_object;

struct json_object *perf_result_to_json(const perf_result_t *r);
/* 0, or -1 with the error set (c names the file; where is o's JSON path). */
int perf_result_from_json(const cfg_t *c, struct json_object *o, const char *where,
                          perf_result_t *r);

struct json_object *evidence_log_to_json(const evidence_log_t *log);
/* 0, or -1 with the error set; log holds what was read either way (free it). */
int evidence_log_from_json(const cfg_t *c, struct json_object *arr, const char *where,
                           evidence_log_t *log);

#endif
