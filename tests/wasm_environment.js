// --pre-js of the wasm GoogleTest binary. Emscripten gives the program an environment of its own, not Node's;
// GoogleTest's sharding (GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX, set per shard by tests/CMakeLists.txt) and the
// suite's own switches come from Node's.
Module['preRun'] = (Module['preRun'] || []).concat(() => {
  for (const name of Object.keys(process.env)) {
    if (name.startsWith('GTEST_') || name.startsWith('PBD_')) ENV[name] = process.env[name];
  }
});
