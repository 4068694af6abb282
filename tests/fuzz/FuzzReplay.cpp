// The driver that replaces libFuzzer in the ordinary build: runs every file given on the
// command line (directories: every file under them, in name order) through the target's
// LLVMFuzzerTestOneInput once. ctest replays the seed corpus and every crasher ever found
// this way, so a fixed crash stays fixed without clang. A crash fails the test; so does
// a path that does not exist or a corpus directory without inputs (--nonempty DIR).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

namespace {

namespace fs = std::filesystem;

// Files under `path`, skipping dot files and the README that says what a directory is.
std::vector<fs::path> inputsUnder(const fs::path &path)
{
    std::vector<fs::path> out;
    const auto wanted = [](const fs::path &p) {
        const std::string name = p.filename().string();
        return !name.empty() && name[0] != '.' && name.rfind("README", 0) != 0;
    };
    if (fs::is_directory(path)) {
        for (const auto &entry : fs::recursive_directory_iterator(path)) {
            if (entry.is_regular_file() && wanted(entry.path()))
                out.push_back(entry.path());
        }
        std::sort(out.begin(), out.end());
    } else if (fs::is_regular_file(path)) {
        out.push_back(path);
    }
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    size_t total = 0;
    bool nonempty = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--nonempty") == 0) {
            nonempty = true;
            continue;
        }
        const fs::path path(argv[i]);
        if (!fs::exists(path)) {
            std::fprintf(stderr, "%s: no such file or directory\n", argv[i]);
            return 2;
        }
        const std::vector<fs::path> inputs = inputsUnder(path);
        if (nonempty && inputs.empty()) {
            std::fprintf(stderr, "%s: no inputs\n", argv[i]);
            return 2;
        }
        nonempty = false;
        for (const fs::path &input : inputs) {
            std::ifstream in(input, std::ios::binary);
            const std::vector<char> bytes{std::istreambuf_iterator<char>(in),
                                          std::istreambuf_iterator<char>()};
            std::fprintf(stderr, "%s\n", input.c_str());
            LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
            ++total;
        }
    }
    std::fprintf(stderr, "replayed %zu inputs\n", total);
    return 0;
}
