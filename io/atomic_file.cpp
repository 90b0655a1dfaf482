#include "io/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace flexim::io {

bool writeFileAtomically(const std::string& path, std::string_view bytes, std::string* error) {
  const auto failed = [&](int code) {
    if (error) *error = "cannot write '" + path + "': " + std::strerror(code);
    return false;
  };
  std::string tmp = path + ".XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return failed(errno);
  const auto discard = [&](int code) {  // the temporary file goes, the target stays as it was
    ::unlink(tmp.c_str());
    return failed(code);
  };
  const auto abandon = [&](int code) {
    ::close(fd);
    return discard(code);
  };
  // mkstemp makes the file 0600: give it the target's mode, or a new file's
  struct stat target {};
  mode_t mode = 0;
  if (::stat(path.c_str(), &target) == 0) {
    mode = target.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd, mode) != 0) return abandon(errno);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return abandon(n < 0 ? errno : EIO);
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) return abandon(errno);
  if (::close(fd) != 0) return discard(errno);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return discard(errno);
  return true;
}

}  // namespace flexim::io
