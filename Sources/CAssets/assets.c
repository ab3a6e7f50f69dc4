// The files of assets/ embedded in the executable, so a copy of the binary alone finds its
// fonts, presets, sample data and editor definitions (ChartSceneHost/AssetLocator unpacks
// them when no assets folder is found). `.incbin` finds each file through the include path
// Package.swift gives this target (the repository's assets/ folder).
//
// The build does not track these files: after changing one, touch this file (or run
// scripts/test, whose AssetTests fail with that advice when the embedded copy is stale).
// Every file under assets/ must be listed here; AssetTests check that too.
#include "CAssets.h"

#define CS_EMBED(sym, file)                                   \
  __asm__(".section .rodata\n"                                \
          ".balign 16\n"                                      \
          ".global " #sym "\n" #sym ":\n"                     \
          ".incbin \"" file "\"\n"                            \
          ".global " #sym "_end\n" #sym "_end:\n"             \
          ".byte 0\n"                                         \
          ".previous\n");                                     \
  extern const unsigned char sym[], sym##_end[];

CS_EMBED(cs_a_font_regular, "fonts/Inter-Regular.otf")
CS_EMBED(cs_a_font_semibold, "fonts/Inter-SemiBold.otf")
CS_EMBED(cs_a_font_bold, "fonts/Inter-Bold.otf")
CS_EMBED(cs_a_font_license, "fonts/LICENSE-Inter.txt")
CS_EMBED(cs_a_font_notosansarabic_regular, "fonts/NotoSansArabic-Regular.ttf")
CS_EMBED(cs_a_font_notosansarabic_bold, "fonts/NotoSansArabic-Bold.ttf")
CS_EMBED(cs_a_font_notosanshebrew_regular, "fonts/NotoSansHebrew-Regular.ttf")
CS_EMBED(cs_a_font_notosanshebrew_bold, "fonts/NotoSansHebrew-Bold.ttf")
CS_EMBED(cs_a_font_notosansdevanagari_regular, "fonts/NotoSansDevanagari-Regular.ttf")
CS_EMBED(cs_a_font_notosansdevanagari_bold, "fonts/NotoSansDevanagari-Bold.ttf")
CS_EMBED(cs_a_font_notosansthai_regular, "fonts/NotoSansThai-Regular.ttf")
CS_EMBED(cs_a_font_notosansthai_bold, "fonts/NotoSansThai-Bold.ttf")
CS_EMBED(cs_a_font_notosanscjk_regular, "fonts/NotoSansCJK-Regular.otf")
CS_EMBED(cs_a_font_notocoloremoji, "fonts/NotoColorEmoji.ttf")
CS_EMBED(cs_a_font_license_noto_lic, "fonts/LICENSE-Noto.txt")
CS_EMBED(cs_a_data_sample, "data/chart_data.json")
CS_EMBED(cs_a_composition_cards, "compositions/cards.lua")
CS_EMBED(cs_a_composition_carousel, "compositions/carousel.lua")
CS_EMBED(cs_a_composition_list, "compositions/list.lua")
CS_EMBED(cs_a_composition_race, "compositions/race.lua")
CS_EMBED(cs_a_composition_follow, "compositions/follow.lua")
CS_EMBED(cs_a_composition_tabs, "compositions/tabs.lua")
CS_EMBED(cs_a_locale_en, "locales/en.json")
CS_EMBED(cs_a_locale_es, "locales/es.json")
CS_EMBED(cs_a_locale_fr, "locales/fr.json")
CS_EMBED(cs_a_locale_de, "locales/de.json")
CS_EMBED(cs_a_locale_pt_BR, "locales/pt-BR.json")
CS_EMBED(cs_a_locale_ru, "locales/ru.json")
CS_EMBED(cs_a_locale_uk, "locales/uk.json")
CS_EMBED(cs_a_locale_zh_Hans, "locales/zh-Hans.json")
CS_EMBED(cs_a_locale_ja, "locales/ja.json")
CS_EMBED(cs_a_locale_ko, "locales/ko.json")
CS_EMBED(cs_a_locale_ar, "locales/ar.json")
CS_EMBED(cs_a_locale_he, "locales/he.json")
CS_EMBED(cs_a_locale_hi, "locales/hi.json")
CS_EMBED(cs_a_preset_cards, "presets/cards.lua")
CS_EMBED(cs_a_preset_carousel, "presets/carousel.lua")
CS_EMBED(cs_a_preset_day, "presets/day.lua")
CS_EMBED(cs_a_preset_list, "presets/list.lua")
CS_EMBED(cs_a_preset_night, "presets/night.lua")
CS_EMBED(cs_a_types, "types/chartscene.lua")

#define CS_ENTRY(file, sym) { file, sym, sym##_end }

static const cs_asset table[] = {
  CS_ENTRY("fonts/Inter-Regular.otf", cs_a_font_regular),
  CS_ENTRY("fonts/Inter-SemiBold.otf", cs_a_font_semibold),
  CS_ENTRY("fonts/Inter-Bold.otf", cs_a_font_bold),
  CS_ENTRY("fonts/LICENSE-Inter.txt", cs_a_font_license),
  CS_ENTRY("fonts/NotoSansArabic-Regular.ttf", cs_a_font_notosansarabic_regular),
  CS_ENTRY("fonts/NotoSansArabic-Bold.ttf", cs_a_font_notosansarabic_bold),
  CS_ENTRY("fonts/NotoSansHebrew-Regular.ttf", cs_a_font_notosanshebrew_regular),
  CS_ENTRY("fonts/NotoSansHebrew-Bold.ttf", cs_a_font_notosanshebrew_bold),
  CS_ENTRY("fonts/NotoSansDevanagari-Regular.ttf", cs_a_font_notosansdevanagari_regular),
  CS_ENTRY("fonts/NotoSansDevanagari-Bold.ttf", cs_a_font_notosansdevanagari_bold),
  CS_ENTRY("fonts/NotoSansThai-Regular.ttf", cs_a_font_notosansthai_regular),
  CS_ENTRY("fonts/NotoSansThai-Bold.ttf", cs_a_font_notosansthai_bold),
  CS_ENTRY("fonts/NotoSansCJK-Regular.otf", cs_a_font_notosanscjk_regular),
  CS_ENTRY("fonts/NotoColorEmoji.ttf", cs_a_font_notocoloremoji),
  CS_ENTRY("fonts/LICENSE-Noto.txt", cs_a_font_license_noto_lic),
  CS_ENTRY("data/chart_data.json", cs_a_data_sample),
  CS_ENTRY("compositions/cards.lua", cs_a_composition_cards),
  CS_ENTRY("compositions/carousel.lua", cs_a_composition_carousel),
  CS_ENTRY("compositions/list.lua", cs_a_composition_list),
  CS_ENTRY("compositions/race.lua", cs_a_composition_race),
  CS_ENTRY("compositions/follow.lua", cs_a_composition_follow),
  CS_ENTRY("compositions/tabs.lua", cs_a_composition_tabs),
  CS_ENTRY("locales/en.json", cs_a_locale_en),
  CS_ENTRY("locales/es.json", cs_a_locale_es),
  CS_ENTRY("locales/fr.json", cs_a_locale_fr),
  CS_ENTRY("locales/de.json", cs_a_locale_de),
  CS_ENTRY("locales/pt-BR.json", cs_a_locale_pt_BR),
  CS_ENTRY("locales/ru.json", cs_a_locale_ru),
  CS_ENTRY("locales/uk.json", cs_a_locale_uk),
  CS_ENTRY("locales/zh-Hans.json", cs_a_locale_zh_Hans),
  CS_ENTRY("locales/ja.json", cs_a_locale_ja),
  CS_ENTRY("locales/ko.json", cs_a_locale_ko),
  CS_ENTRY("locales/ar.json", cs_a_locale_ar),
  CS_ENTRY("locales/he.json", cs_a_locale_he),
  CS_ENTRY("locales/hi.json", cs_a_locale_hi),
  CS_ENTRY("presets/cards.lua", cs_a_preset_cards),
  CS_ENTRY("presets/carousel.lua", cs_a_preset_carousel),
  CS_ENTRY("presets/day.lua", cs_a_preset_day),
  CS_ENTRY("presets/list.lua", cs_a_preset_list),
  CS_ENTRY("presets/night.lua", cs_a_preset_night),
  CS_ENTRY("types/chartscene.lua", cs_a_types),
};

const cs_asset *cs_embedded_assets(size_t *count) {
  *count = sizeof table / sizeof table[0];
  return table;
}
