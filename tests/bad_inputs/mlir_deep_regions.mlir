// Regions nested 300 levels deep: refused, not a stack overflow in MLIR's parser.
func.func @f0() {
func.func @f1() {
func.func @f2() {
func.func @f3() {
func.func @f4() {
func.func @f5() {
func.func @f6() {
func.func @f7() {
func.func @f8() {
func.func @f9() {
func.func @f10() {
func.func @f11() {
func.func @f12() {
func.func @f13() {
func.func @f14() {
func.func @f15() {
func.func @f16() {
func.func @f17() {
func.func @f18() {
func.func @f19() {
func.func @f20() {
func.func @f21() {
func.func @f22() {
func.func @f23() {
func.func @f24() {
func.func @f25() {
func.func @f26() {
func.func @f27() {
func.func @f28() {
func.func @f29() {
func.func @f30() {
func.func @f31() {
func.func @f32() {
func.func @f33() {
func.func @f34() {
func.func @f35() {
func.func @f36() {
func.func @f37() {
func.func @f38() {
func.func @f39() {
func.func @f40() {
func.func @f41() {
func.func @f42() {
func.func @f43() {
func.func @f44() {
func.func @f45() {
func.func @f46() {
func.func @f47() {
func.func @f48() {
func.func @f49() {
func.func @f50() {
func.func @f51() {
func.func @f52() {
func.func @f53() {
func.func @f54() {
func.func @f55() {
func.func @f56() {
func.func @f57() {
func.func @f58() {
func.func @f59() {
func.func @f60() {
func.func @f61() {
func.func @f62() {
func.func @f63() {
func.func @f64() {
func.func @f65() {
func.func @f66() {
func.func @f67() {
func.func @f68() {
func.func @f69() {
func.func @f70() {
func.func @f71() {
func.func @f72() {
func.func @f73() {
func.func @f74() {
func.func @f75() {
func.func @f76() {
func.func @f77() {
func.func @f78() {
func.func @f79() {
func.func @f80() {
func.func @f81() {
func.func @f82() {
func.func @f83() {
func.func @f84() {
func.func @f85() {
func.func @f86() {
func.func @f87() {
func.func @f88() {
func.func @f89() {
func.func @f90() {
func.func @f91() {
func.func @f92() {
func.func @f93() {
func.func @f94() {
func.func @f95() {
func.func @f96() {
func.func @f97() {
func.func @f98() {
func.func @f99() {
func.func @f100() {
func.func @f101() {
func.func @f102() {
func.func @f103() {
func.func @f104() {
func.func @f105() {
func.func @f106() {
func.func @f107() {
func.func @f108() {
func.func @f109() {
func.func @f110() {
func.func @f111() {
func.func @f112() {
func.func @f113() {
func.func @f114() {
func.func @f115() {
func.func @f116() {
func.func @f117() {
func.func @f118() {
func.func @f119() {
func.func @f120() {
func.func @f121() {
func.func @f122() {
func.func @f123() {
func.func @f124() {
func.func @f125() {
func.func @f126() {
func.func @f127() {
func.func @f128() {
func.func @f129() {
func.func @f130() {
func.func @f131() {
func.func @f132() {
func.func @f133() {
func.func @f134() {
func.func @f135() {
func.func @f136() {
func.func @f137() {
func.func @f138() {
func.func @f139() {
func.func @f140() {
func.func @f141() {
func.func @f142() {
func.func @f143() {
func.func @f144() {
func.func @f145() {
func.func @f146() {
func.func @f147() {
func.func @f148() {
func.func @f149() {
func.func @f150() {
func.func @f151() {
func.func @f152() {
func.func @f153() {
func.func @f154() {
func.func @f155() {
func.func @f156() {
func.func @f157() {
func.func @f158() {
func.func @f159() {
func.func @f160() {
func.func @f161() {
func.func @f162() {
func.func @f163() {
func.func @f164() {
func.func @f165() {
func.func @f166() {
func.func @f167() {
func.func @f168() {
func.func @f169() {
func.func @f170() {
func.func @f171() {
func.func @f172() {
func.func @f173() {
func.func @f174() {
func.func @f175() {
func.func @f176() {
func.func @f177() {
func.func @f178() {
func.func @f179() {
func.func @f180() {
func.func @f181() {
func.func @f182() {
func.func @f183() {
func.func @f184() {
func.func @f185() {
func.func @f186() {
func.func @f187() {
func.func @f188() {
func.func @f189() {
func.func @f190() {
func.func @f191() {
func.func @f192() {
func.func @f193() {
func.func @f194() {
func.func @f195() {
func.func @f196() {
func.func @f197() {
func.func @f198() {
func.func @f199() {
func.func @f200() {
func.func @f201() {
func.func @f202() {
func.func @f203() {
func.func @f204() {
func.func @f205() {
func.func @f206() {
func.func @f207() {
func.func @f208() {
func.func @f209() {
func.func @f210() {
func.func @f211() {
func.func @f212() {
func.func @f213() {
func.func @f214() {
func.func @f215() {
func.func @f216() {
func.func @f217() {
func.func @f218() {
func.func @f219() {
func.func @f220() {
func.func @f221() {
func.func @f222() {
func.func @f223() {
func.func @f224() {
func.func @f225() {
func.func @f226() {
func.func @f227() {
func.func @f228() {
func.func @f229() {
func.func @f230() {
func.func @f231() {
func.func @f232() {
func.func @f233() {
func.func @f234() {
func.func @f235() {
func.func @f236() {
func.func @f237() {
func.func @f238() {
func.func @f239() {
func.func @f240() {
func.func @f241() {
func.func @f242() {
func.func @f243() {
func.func @f244() {
func.func @f245() {
func.func @f246() {
func.func @f247() {
func.func @f248() {
func.func @f249() {
func.func @f250() {
func.func @f251() {
func.func @f252() {
func.func @f253() {
func.func @f254() {
func.func @f255() {
func.func @f256() {
func.func @f257() {
func.func @f258() {
func.func @f259() {
func.func @f260() {
func.func @f261() {
func.func @f262() {
func.func @f263() {
func.func @f264() {
func.func @f265() {
func.func @f266() {
func.func @f267() {
func.func @f268() {
func.func @f269() {
func.func @f270() {
func.func @f271() {
func.func @f272() {
func.func @f273() {
func.func @f274() {
func.func @f275() {
func.func @f276() {
func.func @f277() {
func.func @f278() {
func.func @f279() {
func.func @f280() {
func.func @f281() {
func.func @f282() {
func.func @f283() {
func.func @f284() {
func.func @f285() {
func.func @f286() {
func.func @f287() {
func.func @f288() {
func.func @f289() {
func.func @f290() {
func.func @f291() {
func.func @f292() {
func.func @f293() {
func.func @f294() {
func.func @f295() {
func.func @f296() {
func.func @f297() {
func.func @f298() {
func.func @f299() {
return
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
return
}
