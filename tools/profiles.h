/* SPDX-License-Identifier: MIT */
/*
 * Reading profile files (tools/profiles.c): the model parses and checks
 * profiles from text; the front ends read the files with these.
 */
#ifndef WPSIM_TOOLS_PROFILES_H
#define WPSIM_TOOLS_PROFILES_H

#include <stddef.h>
#include <stdio.h>

#include "model/cost.h"
#include "model/hw/nvme.h"

/* Read and parse a device profile file; -ENOENT / -EINVAL with the
 * message in @err. */
int wpsim_device_profile_load(const char *path, struct hw_nvme_profile *p,
			      char *err, size_t err_bytes);

/*
 * Load the device profile @name from @dir (file @dir/@name.dev); its
 * name = line must say @name.  A @name with a '/' is a path
 * (DIR/NAME.dev, @dir not used), whose name = line must say NAME.
 * Return: as wpsim_device_profile_load.
 */
int wpsim_device_profile_find(const char *dir, const char *name,
			      struct hw_nvme_profile *p, char *err,
			      size_t err_bytes);

/*
 * Print "name  description" for every *.dev file in @dir, sorted by name;
 * a file that does not parse is listed with its error.
 * Return: the number of profiles that parse, or -errno if @dir cannot be
 * read.
 */
int wpsim_device_profile_list(const char *dir, FILE *out);

/*
 * Read a CPU cost profile file into @profile (m_cost_profile_parse):
 * fields not named keep their values.  Returns 0, -EINVAL (a parse
 * error, printed to @err), or -errno when the file cannot be read.
 */
int wpsim_cpu_profile_load(const char *path, struct m_cost_profile *profile,
			   FILE *err);

#endif
