# Fails the build when the embed SDK's gzipped size exceeds its budget (bytes).
find_program(GZIP gzip REQUIRED)
file(SIZE ${FILE} raw)
execute_process(COMMAND sh -c "${GZIP} -9 -c '${FILE}' | wc -c" OUTPUT_VARIABLE gzsize
    OUTPUT_STRIP_TRAILING_WHITESPACE)
message(STATUS "embed.js: ${raw} bytes, ${gzsize} bytes gzipped (budget ${BUDGET})")
if(gzsize GREATER BUDGET)
    message(FATAL_ERROR "embed.js is ${gzsize} bytes gzipped, over its budget of ${BUDGET}")
endif()
