# CPack pre-build script (CPACK_PRE_BUILD_SCRIPTS): once every component is
# staged, writes each package's preinst with the files it installs
# (cmake/deb/preinst.in); CPACK_DEBIAN_<COMPONENT>_PACKAGE_CONTROL_EXTRA
# names these files.
foreach(component ${CPACK_COMPONENTS_ALL})
	string(TOUPPER ${component} upper)
	set(SDOCA_PACKAGE ${CPACK_DEBIAN_${upper}_PACKAGE_NAME})
	file(GLOB_RECURSE files LIST_DIRECTORIES false
		RELATIVE "${CPACK_TEMPORARY_DIRECTORY}/${component}"
		"${CPACK_TEMPORARY_DIRECTORY}/${component}/*")
	if(NOT files)
		message(FATAL_ERROR "preinst.cmake: no files staged for ${component}")
	endif()
	list(SORT files)
	set(SDOCA_FILES "")
	foreach(file ${files})
		string(APPEND SDOCA_FILES "\t\"/${file}\" \\\n")
	endforeach()
	string(REGEX REPLACE " \\\\\n$" "" SDOCA_FILES "${SDOCA_FILES}")
	configure_file(${CPACK_SDOCA_PREINST_TEMPLATE} ${CPACK_SDOCA_PREINST_DIR}/${component}/preinst @ONLY)
endforeach()
