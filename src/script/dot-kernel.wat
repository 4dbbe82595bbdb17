;; Dot products for cosine k-means, WebAssembly SIMD (f32x4). Assembled by scripts/build-wasm.mjs (wabt) into
;; dot-kernel-wasm.ts; `bench script` measures it against plain typed arrays (docs/BENCHMARKS.md).
;; Addresses are byte offsets into the exported memory; rows are row-major f32 of width d (d % 4 = 0).
(module
  (type $t0 (func (param i32 i32 i32 i32 i32 i32)))
  (type $t1 (func (param i32 i32 i32 i32 i32)))
  ;; One page (64 KiB) to start; the host grows it to fit the matrices.
  (memory $memory (export "memory") 1)
  ;; scores(x, nx, c, nc, d, out): out[i*nc + j] = x_i . c_j, for nx % 4 = 0 and nc % 2 = 0. Tiles of 4 rows by
  ;; 2 centroids: 8 f32x4 accumulators plus 6 operands fit the 16 SIMD registers, and each load serves 2 or 4 products.
  (func $scores (export "scores") (type $t0)
    (param $x i32)
    (param $nx i32)
    (param $c i32)
    (param $nc i32)
    (param $d i32)
    (param $out i32)
    (local $i i32)
    (local $j i32)
    (local $q i32)
    (local $row_bytes i32)
    (local $o i32)
    (local $x0 i32)
    (local $x1 i32)
    (local $x2 i32)
    (local $x3 i32)
    (local $c0 i32)
    (local $c1 i32)
    (local $acc00 v128)
    (local $acc01 v128)
    (local $acc10 v128)
    (local $acc11 v128)
    (local $acc20 v128)
    (local $acc21 v128)
    (local $acc30 v128)
    (local $acc31 v128)
    (local $vx0 v128)
    (local $vx1 v128)
    (local $vx2 v128)
    (local $vx3 v128)
    (local $vc0 v128)
    (local $vc1 v128)
    local.get $d
    i32.const 4
    i32.mul
    local.set $row_bytes
    loop $rows
      local.get $x
      local.get $i
      local.get $row_bytes
      i32.mul
      i32.add
      local.set $x0
      local.get $x0
      local.get $row_bytes
      i32.add
      local.set $x1
      local.get $x1
      local.get $row_bytes
      i32.add
      local.set $x2
      local.get $x2
      local.get $row_bytes
      i32.add
      local.set $x3
      i32.const 0
      local.set $j
      loop $centroids
        local.get $c
        local.get $j
        local.get $row_bytes
        i32.mul
        i32.add
        local.set $c0
        local.get $c0
        local.get $row_bytes
        i32.add
        local.set $c1
        v128.const f32x4 0 0 0 0
        local.set $acc00
        v128.const f32x4 0 0 0 0
        local.set $acc01
        v128.const f32x4 0 0 0 0
        local.set $acc10
        v128.const f32x4 0 0 0 0
        local.set $acc11
        v128.const f32x4 0 0 0 0
        local.set $acc20
        v128.const f32x4 0 0 0 0
        local.set $acc21
        v128.const f32x4 0 0 0 0
        local.set $acc30
        v128.const f32x4 0 0 0 0
        local.set $acc31
        i32.const 0
        local.set $q
        loop $lanes
          local.get $x0
          local.get $q
          i32.add
          v128.load align=4
          local.set $vx0
          local.get $x1
          local.get $q
          i32.add
          v128.load align=4
          local.set $vx1
          local.get $x2
          local.get $q
          i32.add
          v128.load align=4
          local.set $vx2
          local.get $x3
          local.get $q
          i32.add
          v128.load align=4
          local.set $vx3
          local.get $c0
          local.get $q
          i32.add
          v128.load align=4
          local.set $vc0
          local.get $c1
          local.get $q
          i32.add
          v128.load align=4
          local.set $vc1
          local.get $acc00
          local.get $vx0
          local.get $vc0
          f32x4.mul
          f32x4.add
          local.set $acc00
          local.get $acc01
          local.get $vx0
          local.get $vc1
          f32x4.mul
          f32x4.add
          local.set $acc01
          local.get $acc10
          local.get $vx1
          local.get $vc0
          f32x4.mul
          f32x4.add
          local.set $acc10
          local.get $acc11
          local.get $vx1
          local.get $vc1
          f32x4.mul
          f32x4.add
          local.set $acc11
          local.get $acc20
          local.get $vx2
          local.get $vc0
          f32x4.mul
          f32x4.add
          local.set $acc20
          local.get $acc21
          local.get $vx2
          local.get $vc1
          f32x4.mul
          f32x4.add
          local.set $acc21
          local.get $acc30
          local.get $vx3
          local.get $vc0
          f32x4.mul
          f32x4.add
          local.set $acc30
          local.get $acc31
          local.get $vx3
          local.get $vc1
          f32x4.mul
          f32x4.add
          local.set $acc31
          local.get $q
          i32.const 16
          i32.add
          local.tee $q
          local.get $row_bytes
          i32.lt_u
          br_if $lanes
        end
        local.get $out
        local.get $i
        local.get $nc
        i32.mul
        local.get $j
        i32.add
        i32.const 4
        i32.mul
        i32.add
        local.set $o
        local.get $o
        local.get $acc00
        f32x4.extract_lane 0
        local.get $acc00
        f32x4.extract_lane 1
        f32.add
        local.get $acc00
        f32x4.extract_lane 2
        f32.add
        local.get $acc00
        f32x4.extract_lane 3
        f32.add
        f32.store
        local.get $o
        local.get $acc01
        f32x4.extract_lane 0
        local.get $acc01
        f32x4.extract_lane 1
        f32.add
        local.get $acc01
        f32x4.extract_lane 2
        f32.add
        local.get $acc01
        f32x4.extract_lane 3
        f32.add
        f32.store offset=4
        local.get $o
        local.get $nc
        i32.const 4
        i32.mul
        i32.add
        local.set $o
        local.get $o
        local.get $acc10
        f32x4.extract_lane 0
        local.get $acc10
        f32x4.extract_lane 1
        f32.add
        local.get $acc10
        f32x4.extract_lane 2
        f32.add
        local.get $acc10
        f32x4.extract_lane 3
        f32.add
        f32.store
        local.get $o
        local.get $acc11
        f32x4.extract_lane 0
        local.get $acc11
        f32x4.extract_lane 1
        f32.add
        local.get $acc11
        f32x4.extract_lane 2
        f32.add
        local.get $acc11
        f32x4.extract_lane 3
        f32.add
        f32.store offset=4
        local.get $o
        local.get $nc
        i32.const 4
        i32.mul
        i32.add
        local.set $o
        local.get $o
        local.get $acc20
        f32x4.extract_lane 0
        local.get $acc20
        f32x4.extract_lane 1
        f32.add
        local.get $acc20
        f32x4.extract_lane 2
        f32.add
        local.get $acc20
        f32x4.extract_lane 3
        f32.add
        f32.store
        local.get $o
        local.get $acc21
        f32x4.extract_lane 0
        local.get $acc21
        f32x4.extract_lane 1
        f32.add
        local.get $acc21
        f32x4.extract_lane 2
        f32.add
        local.get $acc21
        f32x4.extract_lane 3
        f32.add
        f32.store offset=4
        local.get $o
        local.get $nc
        i32.const 4
        i32.mul
        i32.add
        local.set $o
        local.get $o
        local.get $acc30
        f32x4.extract_lane 0
        local.get $acc30
        f32x4.extract_lane 1
        f32.add
        local.get $acc30
        f32x4.extract_lane 2
        f32.add
        local.get $acc30
        f32x4.extract_lane 3
        f32.add
        f32.store
        local.get $o
        local.get $acc31
        f32x4.extract_lane 0
        local.get $acc31
        f32x4.extract_lane 1
        f32.add
        local.get $acc31
        f32x4.extract_lane 2
        f32.add
        local.get $acc31
        f32x4.extract_lane 3
        f32.add
        f32.store offset=4
        local.get $j
        i32.const 2
        i32.add
        local.tee $j
        local.get $nc
        i32.lt_u
        br_if $centroids
      end
      local.get $i
      i32.const 4
      i32.add
      local.tee $i
      local.get $nx
      i32.lt_u
      br_if $rows
    end)
  ;; dots(x, n, c, d, out): out[i] = x_i . c, for n even: two rows per pass share each load of c.
  (func $dots (export "dots") (type $t1)
    (param $x i32)
    (param $n i32)
    (param $c i32)
    (param $d i32)
    (param $out i32)
    (local $i i32)
    (local $q i32)
    (local $xa i32)
    (local $xb i32)
    (local $row_bytes i32)
    (local $o i32)
    (local $a0 v128)
    (local $a1 v128)
    (local $w v128)
    (local $va v128)
    (local $vb v128)
    local.get $d
    i32.const 4
    i32.mul
    local.set $row_bytes
    loop $rows
      local.get $x
      local.get $i
      local.get $row_bytes
      i32.mul
      i32.add
      local.set $xa
      local.get $xa
      local.get $row_bytes
      i32.add
      local.set $xb
      v128.const f32x4 0 0 0 0
      local.set $a0
      v128.const f32x4 0 0 0 0
      local.set $a1
      i32.const 0
      local.set $q
      loop $lanes
        local.get $c
        local.get $q
        i32.add
        v128.load align=4
        local.set $w
        local.get $xa
        local.get $q
        i32.add
        v128.load align=4
        local.set $va
        local.get $xb
        local.get $q
        i32.add
        v128.load align=4
        local.set $vb
        local.get $a0
        local.get $va
        local.get $w
        f32x4.mul
        f32x4.add
        local.set $a0
        local.get $a1
        local.get $vb
        local.get $w
        f32x4.mul
        f32x4.add
        local.set $a1
        local.get $q
        i32.const 16
        i32.add
        local.tee $q
        local.get $row_bytes
        i32.lt_u
        br_if $lanes
      end
      local.get $out
      local.get $i
      i32.const 4
      i32.mul
      i32.add
      local.set $o
      local.get $o
      local.get $a0
      f32x4.extract_lane 0
      local.get $a0
      f32x4.extract_lane 1
      f32.add
      local.get $a0
      f32x4.extract_lane 2
      f32.add
      local.get $a0
      f32x4.extract_lane 3
      f32.add
      f32.store
      local.get $o
      local.get $a1
      f32x4.extract_lane 0
      local.get $a1
      f32x4.extract_lane 1
      f32.add
      local.get $a1
      f32x4.extract_lane 2
      f32.add
      local.get $a1
      f32x4.extract_lane 3
      f32.add
      f32.store offset=4
      local.get $i
      i32.const 2
      i32.add
      local.tee $i
      local.get $n
      i32.lt_u
      br_if $rows
    end))
