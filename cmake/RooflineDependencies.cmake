# Finds what the build needs and, when something is missing, says which Debian 12 package brings it
# (packaging/install-deps.sh installs them all) instead of only naming a config file CMake did not find.

set(ROOFLINE_DEPS_HINT "packaging/install-deps.sh installs every package the build, the tests and the benchmarks need")

# roofline_find_package(<Package> DEBIAN <deb>... [ARGS <find_package arguments>...])
macro(roofline_find_package pkg)
    cmake_parse_arguments(_rfp "" "" "DEBIAN;ARGS" ${ARGN})
    find_package(${pkg} ${_rfp_ARGS} QUIET)
    if(NOT ${pkg}_FOUND)
        string(JOIN " " _rfp_debs ${_rfp_DEBIAN})
        message(FATAL_ERROR "${pkg} was not found: install ${_rfp_debs} "
            "(sudo apt-get install ${_rfp_debs}; ${ROOFLINE_DEPS_HINT}).")
    endif()
endmacro()

# Debian 12 packages that carry each Qt 6 component's CMake files.
set(_roofline_qt_debian_Core qt6-base-dev)
set(_roofline_qt_debian_Gui "qt6-base-dev libgl-dev libxkbcommon-dev")
set(_roofline_qt_debian_Widgets qt6-base-dev)
set(_roofline_qt_debian_Test qt6-base-dev)
set(_roofline_qt_debian_OpenGL libqt6opengl6-dev)
set(_roofline_qt_debian_Charts qt6-charts-dev)
set(_roofline_qt_debian_Svg qt6-svg-dev)

# roofline_find_qt(<version> <component>...): find_package(Qt6 ... REQUIRED) with package hints. A
# component whose config file exists but fails (Qt6Charts without Qt6OpenGL) is not the one to
# install: only the components whose config files are absent are named, with their packages.
macro(roofline_find_qt version)
    set(_rfq_components ${ARGN})
    find_package(Qt6 ${version} QUIET COMPONENTS ${_rfq_components})
    if(NOT Qt6_FOUND)
        set(_rfq_missing)
        set(_rfq_debs)
        if(NOT Qt6_DIR)
            list(APPEND _rfq_missing Qt6)
            list(APPEND _rfq_debs qt6-base-dev)
        else()
            # Qt6Charts' config needs Qt6OpenGL's, only a Recommends of qt6-base-dev.
            set(_rfq_check ${_rfq_components})
            if("Charts" IN_LIST _rfq_check)
                list(APPEND _rfq_check OpenGL)
            endif()
            foreach(_rfq_c IN LISTS _rfq_check)
                find_package(Qt6${_rfq_c} QUIET PATHS "${Qt6_DIR}/.." NO_DEFAULT_PATH)
                if(NOT Qt6${_rfq_c}_FOUND AND NOT Qt6${_rfq_c}_CONSIDERED_CONFIGS)
                    list(APPEND _rfq_missing Qt6${_rfq_c})
                    separate_arguments(_rfq_d UNIX_COMMAND "${_roofline_qt_debian_${_rfq_c}}")
                    list(APPEND _rfq_debs ${_rfq_d})
                endif()
            endforeach()
        endif()
        if(_rfq_debs)
            list(REMOVE_DUPLICATES _rfq_debs)
            string(JOIN " " _rfq_debs_text ${_rfq_debs})
            string(JOIN ", " _rfq_missing_text ${_rfq_missing})
            message(FATAL_ERROR "Qt's CMake files for ${_rfq_missing_text} are missing: install ${_rfq_debs_text} "
                "(sudo apt-get install ${_rfq_debs_text}; ${ROOFLINE_DEPS_HINT}).")
        endif()
        message(FATAL_ERROR "Qt ${version} or newer with ${_rfq_components} was not found: Debian 12 has Qt 6.4 "
            "in qt6-base-dev, qt6-charts-dev, qt6-svg-dev and libqt6opengl6-dev (${ROOFLINE_DEPS_HINT}).\n"
            "Qt said: ${Qt6_NOT_FOUND_MESSAGE}")
    endif()
endmacro()
