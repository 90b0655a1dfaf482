#include "core/run/contact_channels.h"

namespace flexim {

namespace {

/// Calls add(name suffix, unit, value getter) for each channel of a point with `tangents`.
template <class Add>
void eachChannel(int tangents, Add&& add) {
  using V = ContactChannelValues;
  add("gap", "m", [](const V& v) { return v.gap; });
  add("normal_velocity", "m/s", [](const V& v) { return v.normal_velocity; });
  add("normal_force", "N", [](const V& v) { return v.normal_force; });
  for (int t = 0; t < tangents; ++t)
    add(tangents == 1 ? std::string("tangential_force") : "tangential_force." + std::to_string(t + 1), "N",
        [t](const V& v) { return v.tangential_force(t); });
  add("normal_impulse", "N s", [](const V& v) { return v.normal_impulse; });
  for (int t = 0; t < tangents; ++t)
    add(tangents == 1 ? std::string("tangential_impulse") : "tangential_impulse." + std::to_string(t + 1), "N s",
        [t](const V& v) { return v.tangential_impulse(t); });
  add("status", "", [](const V& v) { return double(v.status); });
  add("impacts", "", [](const V& v) { return double(v.impacts); });
}

}  // namespace

std::vector<Channel> contactChannels(const System& sys) {
  std::vector<Channel> out;
  for (const auto& e : sys.contacts())
    eachChannel(e->tangents, [&](const std::string& key, const char* unit, auto&&) {
      out.push_back({e->name + "." + key, unit});
    });
  return out;
}

void appendContactValues(const System& sys, const std::vector<ContactChannelValues>& values, std::vector<double>& out) {
  const ContactChannelValues none;
  for (std::size_t k = 0; k < sys.contacts().size(); ++k) {
    const ContactChannelValues& v = k < values.size() ? values[k] : none;
    eachChannel(sys.contacts()[k]->tangents, [&](const std::string&, const char*, auto&& get) { out.push_back(get(v)); });
  }
}

}  // namespace flexim
