# The core's layers (docs/architecture.md, "Layers"): each a library target pbd_<name> built from its own folder
# src/<name>/, linking only the layers below it. A backward include is rejected twice over:
# - at configure time, every `#include "<folder>/..."` in src/<name>/ must name the layer itself, a layer below it
#   (its DEPS, transitively) or pbd/ (the public headers), or the configure stops and names the file;
# - at compile time, the layer's sources see only those folders: their include path is a view of src/ in the build
#   tree with one symlink per folder they may include, so "world/..." from a mesh source is "file not found".
# The list of every layer target, bottom first, is the global property PBD_LAYER_TARGETS.

set(PBD_LAYER_VIEWS ${CMAKE_CURRENT_BINARY_DIR}/layer-includes)

# pbd_add_layer(NAME [DEPS layer...] [SOURCES file...]): a STATIC library when it has sources, else INTERFACE.
function(pbd_add_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "DEPS;SOURCES")
  set(below ${arg_DEPS})
  foreach(dep IN LISTS arg_DEPS)
    if(NOT TARGET pbd_${dep})
      message(FATAL_ERROR "layer ${name}: DEPS names '${dep}', which is not a layer below it")
    endif()
    get_property(dep_below GLOBAL PROPERTY PBD_LAYER_BELOW_${dep})
    list(APPEND below ${dep_below})
  endforeach()
  list(REMOVE_DUPLICATES below)
  set_property(GLOBAL PROPERTY PBD_LAYER_BELOW_${name} ${below})
  pbd_check_layer_includes(${name} "${below}")

  set(target pbd_${name})
  list(TRANSFORM arg_DEPS PREPEND pbd_ OUTPUT_VARIABLE dep_targets)
  if(arg_SOURCES)
    add_library(${target} STATIC ${arg_SOURCES})
    set(usage PUBLIC)
    set(view ${PBD_LAYER_VIEWS}/${name})
    file(REMOVE_RECURSE ${view})
    file(MAKE_DIRECTORY ${view})
    foreach(folder IN LISTS name below)
      file(CREATE_LINK ${PROJECT_SOURCE_DIR}/src/${folder} ${view}/${folder} SYMBOLIC)
    endforeach()
    target_include_directories(${target} PRIVATE ${view})
    target_link_libraries(${target} PRIVATE pbd_flags)
    if(PBD_UNITY_BUILD)
      set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
    endif()
  else()
    add_library(${target} INTERFACE)
    set(usage INTERFACE)
  endif()
  target_include_directories(${target}
    ${usage} $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${target} ${usage} cxx_std_20)
  target_link_libraries(${target} ${usage} ${dep_targets} Eigen3::Eigen pbd_abi)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  set_property(GLOBAL APPEND PROPERTY PBD_LAYER_TARGETS ${target})
endfunction()

# Every quoted include of src/<name>/ must name its folder, and that folder must be <name>, one of `below` or pbd.
function(pbd_check_layer_includes name below)
  set(allowed ${name} ${below} pbd)
  file(GLOB files RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/src/${name}/*)
  foreach(file IN LISTS files)
    file(STRINGS ${PROJECT_SOURCE_DIR}/${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS includes)
      string(REGEX MATCH "\"([^\"]*)\"" quoted "${line}")
      set(path ${CMAKE_MATCH_1})
      if(NOT path MATCHES "^([A-Za-z0-9_]+)/[^.]")
        message(FATAL_ERROR "${file} includes \"${path}\": an include of the core names its layer's folder "
          "(\"mesh/delaunay.h\"), never a bare or relative path")
      endif()
      if(NOT CMAKE_MATCH_1 IN_LIST allowed)
        list(JOIN below ", " below_text)
        if(NOT below)
          set(below_text "none")
        endif()
        message(FATAL_ERROR "${file} includes \"${path}\": the ${name} layer may include only src/${name}/, the "
          "layers below it (${below_text}) and pbd/ (docs/architecture.md, Layers)")
      endif()
    endforeach()
  endforeach()
endfunction()
