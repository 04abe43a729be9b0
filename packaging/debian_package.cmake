# Desktop integration, man pages, docs and the Debian package (CPack's DEB generator).
# `packaging/setup.sh package` builds the .deb; by hand: `cpack -G DEB` in the build
# directory. Included last from the top CMakeLists.txt; the programs and the scenarios
# are installed by app/CMakeLists.txt.
include(GNUInstallDirs)

set(FABRICLAB_APP_ID io.github.fabriclab.FabricLab)  # .desktop, metainfo, icon and MIME file names
set(FABRICLAB_MAINTAINER "FabricLab maintainers <maintainers@users.noreply.a-seed-3e02d32a.example>"
    CACHE STRING "Maintainer field of the Debian package")
# The project's home page: the one place it is written (the metainfo's homepage and
# screenshot URLs, the copyright file's Source and the package's Homepage field are made
# from it). A guess until the repository is published; change it here or with
# -DFABRICLAB_HOMEPAGE=... . Screenshots are the files in that repository's main branch.
set(FABRICLAB_HOMEPAGE "https://github.com/fabriclab/FabricLab" CACHE STRING "the project's home page (a GitHub repository)")
string(REGEX REPLACE "^https://github.com/" "https://raw.githubusercontent.com/" FABRICLAB_SCREENSHOTS_URL
       "${FABRICLAB_HOMEPAGE}/main/packaging/screenshots")
set(pkg_src ${PROJECT_SOURCE_DIR}/packaging)
set(pkg_gen ${PROJECT_BINARY_DIR}/packaging)
configure_file(${pkg_src}/${FABRICLAB_APP_ID}.metainfo.xml.in ${pkg_gen}/${FABRICLAB_APP_ID}.metainfo.xml @ONLY)
configure_file(${pkg_src}/copyright.in ${pkg_gen}/copyright @ONLY)
set(doc_dir ${CMAKE_INSTALL_DATADIR}/doc/fabriclab)  # not CMAKE_INSTALL_DOCDIR: that is named after the project, FabricLab

# Man pages and the changelog compressed as Debian policy wants them: gzip -9, no name or
# time stamp (-n), so that rebuilding gives the same bytes.
find_program(FABRICLAB_GZIP gzip REQUIRED)
set(pkg_outputs)
set(gz_sources man/fabriclab-cli.1 changelog)
if(TARGET fabriclab)
  list(APPEND gz_sources man/fabriclab.1)
endif()
foreach(src ${gz_sources})
  get_filename_component(name ${src} NAME)
  add_custom_command(OUTPUT ${pkg_gen}/${name}.gz
    COMMAND ${CMAKE_COMMAND} -E copy ${pkg_src}/${src} ${pkg_gen}/${name}
    COMMAND ${FABRICLAB_GZIP} -9nf ${pkg_gen}/${name}
    DEPENDS ${pkg_src}/${src} VERBATIM)
  list(APPEND pkg_outputs ${pkg_gen}/${name}.gz)
endforeach()

# PNG icons rendered from the SVG for the hicolor sizes desktops look up before scalable/.
set(icon_sizes 16 22 24 32 48 64 128 256)
set(icon_svg ${PROJECT_SOURCE_DIR}/resources/fabriclab.svg)
find_program(FABRICLAB_RSVG_CONVERT rsvg-convert)
if(TARGET fabriclab AND NOT FABRICLAB_RSVG_CONVERT)
  message(WARNING "rsvg-convert not found (Debian package librsvg2-bin, installed by packaging/setup.sh): "
                  "the package will have the scalable icon only")
endif()
if(TARGET fabriclab AND FABRICLAB_RSVG_CONVERT)
  foreach(size ${icon_sizes})
    set(png ${pkg_gen}/icons/${size}x${size}/${FABRICLAB_APP_ID}.png)
    add_custom_command(OUTPUT ${png}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${pkg_gen}/icons/${size}x${size}
      COMMAND ${FABRICLAB_RSVG_CONVERT} -w ${size} -h ${size} -o ${png} ${icon_svg}
      DEPENDS ${icon_svg} VERBATIM)
    list(APPEND pkg_outputs ${png})
    install(FILES ${png} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps)
  endforeach()
endif()
add_custom_target(fabriclab_package_files ALL DEPENDS ${pkg_outputs})

install(FILES ${pkg_gen}/fabriclab-cli.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${pkg_gen}/changelog.gz ${pkg_gen}/copyright
              ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/scenario.md
        DESTINATION ${doc_dir})
if(TARGET fabriclab)
  install(FILES ${pkg_gen}/fabriclab.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${pkg_src}/${FABRICLAB_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${pkg_gen}/${FABRICLAB_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  install(FILES ${pkg_src}/${FABRICLAB_APP_ID}.mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
          RENAME ${FABRICLAB_APP_ID}.xml)
  install(FILES ${icon_svg} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
          RENAME ${FABRICLAB_APP_ID}.svg)
endif()

# The package. Dependencies come from dpkg-shlibdeps (Debian's package names for the
# libraries the programs link); the Qt plugins they load (xcb, SVG) ship in those same
# library packages. The desktop, MIME and icon caches are refreshed by the dpkg file
# triggers of desktop-file-utils, shared-mime-info and hicolor-icon-theme: no scripts.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME fabriclab)
set(CPACK_PACKAGE_VENDOR "The FabricLab developers")
set(CPACK_PACKAGE_CONTACT "${FABRICLAB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "simulator and visual lab for GPU interconnect fabrics")
set(CPACK_PACKAGE_DESCRIPTION  # lines of at most 79 characters, as lintian wants
    "FabricLab is a deterministic, packet-level simulator of GPU interconnect
fabrics: GPUs, NVSwitch chips with in-switch computing (NVLink SHARP multicast
and reductions), wafer-scale meshes and multi-level datacenter hierarchies,
running collectives and mixture-of-experts layers.

A scenario is a YAML file describing a fabric, a workload and an optional
sweep. The desktop app (fabriclab) animates a run's links and switches and
compares sweep points; the command-line tool (fabriclab-cli) writes JSON, CSV,
Chrome traces and HTML reports. Bundled scenarios reproduce published systems.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # fabriclab_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${FABRICLAB_HOMEPAGE}")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR})
# cpack (like `make install`) would first build every target, tests and benchmarks
# included; it packages what is built (packaging/setup.sh builds everything before it, and
# tests/packaging/test_package depends on the programs and the generated files).
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
include(CPack)
