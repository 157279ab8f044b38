/* source.h — logs that live elsewhere: on another host, in the journal,
 * in a container's or a pod's log.  Each is read through its own tool
 * (OpenSSH, journalctl, docker, kubectl), run without a shell of ddx's
 * and with its output taken as data, never as commands.
 *
 *   [user@]host:path            scp's syntax: a path with a '/' before the
 *                               first ':', or an existing local file, stays
 *                               local; so does NAME://... (a URL)
 *   ssh://[user@]host[:port]/path
 *   journal:UNIT                journalctl -u UNIT, precise timestamps
 *   docker:CONTAINER            docker logs --timestamps
 *   k8s:[NAMESPACE/]POD[/CONTAINER][:previous]
 *                               kubectl logs --timestamps (--previous: the
 *                               last run of a container that restarted)
 *
 * $DDX_SSH_COMMAND, $DDX_JOURNALCTL, $DDX_DOCKER and $DDX_KUBECTL replace
 * the tool's command (run by /bin/sh with the arguments after it, as git
 * runs $GIT_SSH_COMMAND): "ssh -F ./cfg", "journalctl --file x.journal".
 * A host's files are all read over one connection (OpenSSH's connection
 * sharing, closed when ddx exits). */
#ifndef DDX_SOURCE_H
#define DDX_SOURCE_H

#include <stddef.h>
#include <time.h>

/* Whether path names a log that lives elsewhere (see above). */
int source_is_remote(const char *path);
/* Read remote path's bytes, at most max: *data malloc'd.  *mtime is when
 * it was last written, on this host's clock; *btime its birth, 0 when
 * unknown (a tool's output, written at once as it was read, has both
 * now).  Returns 0, or -1 after printing an error naming path. */
int source_fetch(const char *path, size_t max, char **data, size_t *size, time_t *mtime,
		 time_t *btime);
/* Whether remote path names a folder (only a host's path can). */
int source_is_folder(const char *path);
/* The files under remote folder dir, as paths dir/NAME, in the order
 * input_list_folder gives a local folder's; names starting with a dot
 * are skipped.  Returns 0 with *paths malloc'd (each too), or -1 after
 * printing an error. */
int source_list_folder(const char *dir, char ***paths, size_t *n);

#endif
