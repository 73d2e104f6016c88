"""Offline stand-in for rules_proto."""

proto_library = native.proto_library
proto_lang_toolchain = native.proto_lang_toolchain
