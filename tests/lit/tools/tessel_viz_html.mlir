// `tessel viz --format=html|svg`: one self-contained page or image with a grid per value (the
// values and headers of the text picture), a `tile` element per drawn tile carrying its
// devices and ranges, padding hatched, empty tiles and partial sums marked, text escaped,
// no scripts; --color does not change them; huge meshes are capped like the text; a bad
// format is a usage error.
// RUN: rm -rf %t && split-file %s %t
// RUN: cd %S/../../../examples/mlp && tessel viz mlp.mlir --value=%%x --format=html | FileCheck %s --check-prefix=HTML
// RUN: cd %S/../../../examples/mlp && tessel viz mlp.mlir --value=%%x --format=html --color=always > %t/always.html
// RUN: cd %S/../../../examples/mlp && tessel viz mlp.mlir --value=%%x --format=html --color=never > %t/never.html
// RUN: cmp %t/always.html %t/never.html
// RUN: cd %t && tessel viz uneven.mlir --format=svg | FileCheck %s --check-prefix=SVG
// RUN: cd %t && tessel viz big.mlir --format=svg | FileCheck %s --check-prefix=BIG
// RUN: sh -c 'cd %t && tessel viz uneven.mlir --format=png; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=BAD

// HTML:      <!DOCTYPE html>
// HTML:      <title>tessel viz mlp.mlir @main</title>
// HTML-NOT:  <script
// HTML:      <pattern id="tessel-hatch"
// HTML:      <section class="value" id="value-0">
// HTML-NEXT: <h2>%x = arg0: tensor&lt;16x64xf32&gt; #tessel.sharding&lt;@mesh, [{&quot;data&quot;}, {}]&gt;</h2>
// HTML-NEXT: <p class="dim">dim 0: 16 over &quot;data&quot; (4 pieces of 4)</p>
// HTML-NEXT: <p class="dim">dim 1: 64, whole</p>
// HTML-NEXT: <svg class="grid"
// HTML-NEXT: <g class="tile" id="v0-r0-c0" data-devices="0,1" data-ranges="[0:4, 0:64]" data-color="0" {{.*}}<title>devices 0,1&#10;indices [0:4, 0:64]</title>
// HTML-NEXT: <g class="tile" id="v0-r1-c0" data-devices="2,3" data-ranges="[4:8, 0:64]" data-color="1"
// HTML-NEXT: <g class="tile" id="v0-r2-c0" data-devices="4,5" data-ranges="[8:12, 0:64]" data-color="2"
// HTML-NEXT: <g class="tile" id="v0-r3-c0" data-devices="6,7" data-ranges="[12:16, 0:64]" data-color="3"
// HTML-NEXT: </svg>
// HTML-NEXT: <ul class="notes">
// HTML-NEXT: <li class="note">each tile is held by 2 devices</li>
// HTML-NOT:  <script
// HTML:      </html>

// On a 2x3 mesh, split over "y" (devices j and j+3 hold piece j). %u: 5 over 3 (pieces of
// 2): the last piece [4:5] is half padding. %e: 2 over 3: devices 2 and 5 hold nothing. %s:
// rows over "x", partial sums over "y" (three parts per tile).
// SVG:      <?xml version="1.0" encoding="UTF-8"?>
// SVG-NEXT: <svg xmlns="http://www.w3.org/2000/svg"
// SVG:      <g class="value" id="value-0">
// SVG-NEXT: <text {{.*}}>%u = arg0: tensor&lt;5xf32&gt; #tessel.sharding&lt;@m, [{&quot;y&quot;}]&gt;</text>
// SVG:      <g class="tile" id="v0-r0-c0" data-devices="0,3" data-ranges="[0:2]"
// SVG-NOT:  class="padding"
// SVG:      <g class="tile" id="v0-r0-c1" data-devices="1,4" data-ranges="[2:4]"
// SVG-NOT:  class="padding"
// SVG:      <g class="tile" id="v0-r0-c2" data-devices="2,5" data-ranges="[4:5]" {{.*}}<rect class="padding" width="96" height="44" fill="url(#tessel-hatch)"/><rect class="data" width="48" height="44"
// SVG:      <g class="value" id="value-1">
// SVG:      <g class="tile empty" id="v1-r0-c2" data-devices="2,5" data-ranges="[2:2]" {{.*}}<rect class="padding"{{.*}}>[2:2] empty</text>
// SVG:      >devices 2,5 hold an empty tile (padding only)</text>
// SVG:      <g class="value" id="value-2">
// SVG:      <g class="tile partial" id="v2-r0-c0" data-devices="0-2" data-ranges="[0:2]" {{.*}} data-partial-sums="3" {{.*}}<text class="partial-mark"
// SVG:      >partial sums over &quot;y&quot;: the holders of a tile add up to its value</text>
// SVG:      </svg>

// 1024x1024 pieces on 2^20 devices: the first six rows, the last, and the first 21 columns
// and the last.
// BIG:     <g class="tile" id="v0-r0-c0" data-devices="0" data-ranges="[0:1, 0:1]"
// BIG:     <g class="tile empty" id="v0-r0-c20" data-devices="20"
// BIG-NEXT: <g class="elided"
// BIG-NEXT: <g class="tile empty" id="v0-r0-c1023" data-devices="1023"
// BIG:     <g class="tile empty" id="v0-r1023-c1023" data-devices="1048575"
// BIG:     >pieces 21-1022 of dim 1 are not drawn</text>
// BIG-NEXT: >pieces 6-1022 of dim 0 are not drawn</text>

// BAD:      tessel viz: --format must be text, json, html or svg, got 'png'
// BAD-NEXT: see 'tessel viz --help' for usage
// BAD-NEXT: exit=2

//--- uneven.mlir
tessel.mesh @m = <["x"=2, "y"=3]>
func.func @main(
    %u: tensor<5xf32> {tessel.sharding = #tessel.sharding<@m, [{"y"}]>},
    %e: tensor<2xf32> {tessel.sharding = #tessel.sharding<@m, [{"y"}]>},
    %s: tensor<4xf32> {tessel.sharding = #tessel.sharding<@m, [{"x"}], unreduced={"y"}>})
    -> tensor<5xf32> {
  return %u : tensor<5xf32>
}
//--- big.mlir
// As tessel_viz_big_mesh.mlir: a 1024x1024 mesh, the most devices a mesh may have.
tessel.mesh @mesh = <["x"=1024, "y"=1024]>
func.func @main(%a: tensor<8x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {"y"}]>})
    -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}
