/*
 * A disk whose sync stalls, for tests: loaded with LD_PRELOAD, it holds every fsync and fdatasync of a file under
 * $ANYBRAIN_TEST_STALL_DIR (only those whose path ends with $ANYBRAIN_TEST_STALL_SUFFIX, when it is set) while the file
 * $ANYBRAIN_TEST_STALL_FLAG exists, and lets it through once that file is removed, as a network folder or a failing
 * drive that stops answering and comes back does. Other calls are untouched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int under_stalled_folder(int fd) {
  const char *folder = getenv("ANYBRAIN_TEST_STALL_DIR");
  if (folder == NULL || folder[0] == '\0') return 0;
  char link[64];
  char target[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t length = readlink(link, target, sizeof target - 1);
  if (length < 0) return 0;
  target[length] = '\0';
  size_t prefix = strlen(folder);
  if (strncmp(target, folder, prefix) != 0 || (target[prefix] != '/' && target[prefix] != '\0')) return 0;
  const char *suffix = getenv("ANYBRAIN_TEST_STALL_SUFFIX");
  if (suffix == NULL || suffix[0] == '\0') return 1;
  size_t length_of_suffix = strlen(suffix);
  return (size_t)length >= length_of_suffix && strcmp(target + length - length_of_suffix, suffix) == 0;
}

static void wait_while_stalled(int fd) {
  const char *flag = getenv("ANYBRAIN_TEST_STALL_FLAG");
  if (flag == NULL || !under_stalled_folder(fd)) return;
  const struct timespec pause = {0, 20 * 1000 * 1000};
  while (access(flag, F_OK) == 0) nanosleep(&pause, NULL);
}

int fsync(int fd) {
  static int (*real)(int) = NULL;
  if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  wait_while_stalled(fd);
  return real(fd);
}

int fdatasync(int fd) {
  static int (*real)(int) = NULL;
  if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  wait_while_stalled(fd);
  return real(fd);
}
