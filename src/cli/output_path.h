// Output paths a command writes only at its end (bench's tables, calibrate's
// profile), checked before its work, which a bad path would throw away.
#pragma once

#include <string>

namespace tg::cli {

// Refuses, as a usage error naming `option`, a path that names a folder (or
// ends in '/': `what` says what to give instead) or lies in no folder that
// exists.
void check_output_path(const std::string& path, const std::string& option, const std::string& what);

}  // namespace tg::cli
